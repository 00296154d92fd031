/**
 * The authoring types of `svc.ts` (docs/policy.md). They drive editor completion and turn the
 * forbidden combinations TypeScript can express into type errors; the runtime schemas enforce
 * every rule again, for plain JavaScript policies and values computed at run time.
 */
import type { KindPolicyKeys, KindPreviewKeys, KindPruneFlags, KindTunings } from "../kinds/index.js";
import type { BranchTarget } from "../model/desired-state.js";
import type { PushResult } from "../model/plan.js";

export type { Toggle } from "./schemas/common.js";


/**
 * Which undeclared remote items are deleted (docs/policy.md#prune). Every field defaults to `false`;
 * `prune: true` sets all but `roles` and `databases`, which are only ever set by name.
 */
export interface PruneDef extends KindPruneFlags {}

/**
 * What the branch closure returns (docs/policy.md#the-branch-closure): `parent` and the keys the
 * kinds add (`KindTunings`: `protected`, `ttl`, `postgres`, `readReplicas`, `functions`, …).
 */
export interface BranchTuning extends KindTunings {
  /** Parent branch name, used only when creating the branch. */
  parent?: string;
}

/** The per-branch closure: synchronous, called once per operation. */
export type BranchClosure = (target: Readonly<BranchTarget>) => BranchTuning | null | undefined;

/** Deprecated homes of `functions`, `buckets` and `aiGateway`. */
export interface PreviewDef extends KindPreviewKeys {}

/** The platform branch a hook runs for. */
export interface HookBranch {
  projectId: string;
  /** `null` while the branch does not exist yet (`create.before`, `checkout.before` of a new preview). */
  id: string | null;
  name: string;
  /** Whether this command created the branch. */
  created: boolean;
  isDefault: boolean;
  isProtected: boolean;
  /** The parent branch's id, when the branch has one and it is known. */
  parentId?: string;
}

/** The git checkout the command runs in; `null` outside a git work tree. */
export interface HookGitState {
  /** The checked-out branch; `null` on a detached HEAD. */
  branch: string | null;
  /** The full hash of `HEAD`; `null` before the first commit. */
  commit: string | null;
}

/** What a hook receives (docs/policy.md#hooks). */
export interface HookContext {
  /** `checkout` = `svc branch sync`; `create` = a branch is created; `deploy` = `svc config apply` / `svc deploy`. */
  event: "checkout" | "create" | "deploy";
  phase: "before" | "after";
  git: HookGitState | null;
  branch: HookBranch;
  /**
   * `after` hooks only: the variables a function on the branch sees (`DATABASE_URL`,
   * `DATABASE_URL_UNPOOLED`, `SVC_BRANCH`, service URLs). They hold secrets: never log them.
   */
  env?: Readonly<Record<string, string>>;
  /** `deploy.after` only: the apply's result. */
  result?: PushResult;
}

/** What `checkout.before` may return: another name for the platform branch. */
export interface CheckoutBeforeResult {
  name?: string;
}

/**
 * A hook: a function, a shell command (run by `sh -c` with the context's variables, no stdin,
 * `CI=1`), or a non-empty list of shell commands run in order until one fails.
 */
export type HookCommand<R = void> = string | readonly string[] | ((ctx: HookContext) => R | Promise<R>);

/** The hooks of one event. */
export interface HookPhases<BeforeResult = void> {
  /** Runs before any change; a failure aborts the command with nothing changed. */
  before?: HookCommand<BeforeResult>;
  /** Runs once the command succeeded; a failure is reported as a warning and the command exits 7 (its changes stay). */
  after?: HookCommand;
}

/** Lifecycle hooks the CLI runs (docs/policy.md#hooks); the library never runs them. */
export interface LifecycleHooks {
  /** `svc branch sync`; `before` may return `{ name }` to choose the platform branch's name. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a `before` hook that returns nothing keeps the name.
  checkout?: HookPhases<void | CheckoutBeforeResult>;
  /** A branch is created (`svc branch create`, or a sync that creates its branch). */
  create?: HookPhases;
  /** `svc config apply` and `svc deploy` (never plan, status, validate or dev). */
  deploy?: HookPhases;
}

/** A policy: what one branch of a project should look like (docs/policy.md#top-level-keys). */
export interface PolicyConfig extends KindPolicyKeys {
  /** @default false */
  prune?: boolean | PruneDef;
  /** Commands the CLI runs around sync, branch creation and deploys. @default none */
  hooks?: LifecycleHooks;
  /** Per-branch tuning. @default () => ({}) */
  branch?: BranchClosure;
  /** @deprecated use the top-level keys. */
  preview?: PreviewDef;
}

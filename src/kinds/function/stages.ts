/** The function kind's stages: its diff and prune, its handlers, and when a policy needs the functions feature. */
import { REPLICA_ENV_VALUE } from "../../api/wire/replica-seed.js";
import { applyFunctionDelete, applyFunctionDeploy, functionResult } from "./apply.js";
import { diffFunctions, pruneFunctions } from "./diff.js";
import type { KindStages } from "../module.js";
import { functionRead } from "./read.js";

/** A function build's typical run on the platform, ms. */
const BUILD_WAIT_MS = 10_000;

/** The kind's stages (its facts and light module are in `index.ts`). */
export const functionStages: KindStages<"function"> = {
  read: functionRead,
  // Deployment ids, build statuses and invocation URLs are left out.
  compared: (live) => ({
    functions: live.functions?.map((f) => ({ slug: f.slug, name: f.name, envNames: f.envNames, markers: f.markers, runtime: f.current?.runtime })),
    parentFunctionSlugs: live.parentFunctionSlugs,
  }),
  diff: (desired, live, options, sink) => diffFunctions(desired, live, options.functionTags, sink),
  prune: (desired, live, _options, sink) => pruneFunctions(desired, live, sink),
  declares: (desired) => desired.functions.length > 0,
  result: functionResult,
  handlers: {
    "function-deploy": applyFunctionDeploy,
    "function-delete": (ctx, _change, op) => applyFunctionDelete(ctx, op),
  },
  // A deploy waits for its build (longer than a control-plane operation); a rename alone waits for nothing.
  expectedWaits: { "function-deploy": (op) => (op.deploy ? BUILD_WAIT_MS : 0) },
  // Env names and fingerprint markers as read (values never matter); the parent holds the functions the branch inherits.
  seed: (live) => ({
    branch: {
      functions: (live.functions ?? []).map((f) => ({
        slug: f.slug, name: f.name,
        ...(f.current === undefined ? {} : { runtime: f.current.runtime }),
        environment: Object.fromEntries([...f.envNames, ...f.markers].map((name) => [name, REPLICA_ENV_VALUE])),
      })),
    },
    parent: {
      functions: [...new Set([...(live.parentFunctionSlugs ?? []), ...(live.triggers ?? []).filter((t) => t.inherited).map((t) => t.function)])].map((slug) => ({ slug })),
    },
  }),
};

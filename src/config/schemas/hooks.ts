/**
 * Schema of `hooks`: what the CLI runs around `svc branch sync` (checkout), a branch's creation
 * (create) and `svc config apply` / `svc deploy` (deploy), before and after. A hook is a
 * function, a shell command, or a non-empty list of shell commands run in order. The library
 * only validates hooks; it never runs them.
 */
import * as z from "zod";
import { describeType } from "../issues.js";
import type { HookCommand } from "../policy-types.js";
import { strictObject } from "./common.js";

const HOOK_SHAPE = "a function, a shell command or a non-empty list of shell commands";

/** Why a shell command cannot run, or `null`. */
function commandIssue(value: unknown): string | null {
  if (typeof value !== "string") return `must be a shell command (got ${describeType(value)})`;
  if (value.trim() === "") return "must be a non-empty shell command";
  if (value.includes("\0")) return "must not contain a NUL character (no shell can receive it)";
  return null;
}

/** One hook: kept by reference (functions) or as written (commands). */
const hookSchema = z.custom<HookCommand>().superRefine((value, ctx) => {
  if (typeof value === "function") return;
  if (Array.isArray(value)) {
    if (value.length === 0) ctx.addIssue({ code: "custom", message: `is an empty list: give at least one command, or remove the hook` });
    for (const [index, command] of value.entries()) {
      const issue = commandIssue(command);
      if (issue !== null) ctx.addIssue({ code: "custom", path: [index], message: issue });
    }
    return;
  }
  if (typeof value === "string") {
    const issue = commandIssue(value);
    if (issue !== null) ctx.addIssue({ code: "custom", message: issue });
    return;
  }
  ctx.addIssue({ code: "custom", message: `must be ${HOOK_SHAPE} (got ${describeType(value)})` });
});

/** `{ before?, after? }` of one event. */
const phasesSchema = strictObject({ before: hookSchema.optional(), after: hookSchema.optional() }, "{ before?, after? }");

/** `hooks` (strict): `checkout`, `create`, `deploy`. */
export const hooksSchema = strictObject(
  { checkout: phasesSchema.optional(), create: phasesSchema.optional(), deploy: phasesSchema.optional() },
  "{ checkout?, create?, deploy? }",
);

/** A validated `hooks` block. */
export type ParsedHooks = z.output<typeof hooksSchema>;

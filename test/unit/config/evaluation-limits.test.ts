import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, isPlatformError, resolvePolicy } from "../../../src/v1.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

const TARGET = { name: "main", exists: true, isDefault: true };

/** Loads `svc` as svc.ts under a 300 ms limit and resolves it for `main`; returns what was thrown. */
async function evaluate(svc: string): Promise<{ err: unknown; file: string }> {
  tree = createTempTree({ ".git/": "", "svc.ts": svc });
  const file = tree.path("svc.ts");
  const err = await loadConfigFromFile({ cwd: tree.root, stopAt: tree.root, evaluationTimeoutMs: 300 }).then(
    ({ config }) => resolvePolicy(config, TARGET),
    (e: unknown) => {
      throw e;
    },
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { err, file };
}

describe("evaluation limits", () => {
  it.each([
    ["an endless loop at the module top level", "for (;;) {}\nexport default {};", "module", "did not finish within 300 ms"],
    ["an endless loop in the branch closure", "export default { branch: () => { for (;;) {} } };", "branch", "did not finish within 300 ms"],
    ["process.exit(0) at the module top level", "process.exit(0);\nexport default {};", "module", "called process.exit(0)"],
    ["process.exit() swallowed by the policy", "try { process.exit(); } catch {}\nexport default {};", "module", "called process.exit()"],
    ["process.exit(0) in the branch closure", "export default { branch: () => process.exit(0) };", "branch", "called process.exit(0)"],
    ["process.abort() in the branch closure", "export default { branch: () => { process.abort(); return {}; } };", "branch", "called process.abort()"],
  ])("%s is PLATFORM_CONFIG_LOAD_FAILED naming the file and the phase; the process goes on", async (_label, svc, phase, what) => {
    const { err, file } = await evaluate(svc);

    expect(isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain(file);
    expect(message).toContain(phase === "module" ? "(module top level)" : "(branch closure)");
    expect(message).toContain(what);
    expect((err as { details: Record<string, unknown> }).details).toMatchObject({ file, phase });
  });

  it.each([
    ["a non-enumerable property at the module top level", 'Object.defineProperty(Object.prototype, "allowDataLoss", { value: true, configurable: true });\nexport default {};', "module"],
    ["an assignment in the branch closure", "export default { branch: () => { (Object.prototype as Record<string, unknown>).updateExisting = true; return {}; } };", "branch"],
  ])("refuses prototype pollution (%s) naming the property, and removes it", async (_label, svc, phase) => {
    const { err, file } = await evaluate(svc);

    expect(isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)).toBe(true);
    expect((err as Error).message).toContain(`${file} (${phase === "module" ? "module top level" : "branch closure"}) added "`);
    expect((err as Error).message).toContain("to Object.prototype");
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("allowDataLoss");
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("updateExisting");
  });

  it("refuses prototype pollution by a module the policy imports", async () => {
    tree = createTempTree({ ".git/": "", "svc.ts": 'import "./polluter.mjs";\nexport default {};', "polluter.mjs": "Object.prototype.allowDataLoss = true;\n" });
    const err = await loadConfigFromFile({ cwd: tree.root, stopAt: tree.root }).catch((e: unknown) => e);

    expect(isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)).toBe(true);
    expect((err as Error).message).toContain('added "allowDataLoss" to Object.prototype');
    expect(({} as Record<string, unknown>).allowDataLoss).toBeUndefined();
  });

  it("keeps process.exit and process.abort working after an evaluation", async () => {
    const { exit, abort } = process;
    await evaluate("process.exit(3);\nexport default {};");
    expect(process.exit).toBe(exit);
    expect(process.abort).toBe(abort);
  });

  it.each([0, -1, 1.5, Number.NaN, "30"])("rejects evaluationTimeoutMs %j with PLATFORM_INVALID_OPTIONS", async (value) => {
    const err = await loadConfigFromFile({ evaluationTimeoutMs: value as number }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: ErrorCode.INVALID_OPTIONS, details: { option: "evaluationTimeoutMs" } });
  });
});

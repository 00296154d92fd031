import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/io.js";
import { type ErrorViews, main } from "../../../src/cli/main.js";
import { ConfigLoadError } from "../../../src/errors/index.js";

function capturedIo(): CliIo & { outText: () => string; errText: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (t: string) => ((out += t), true) },
    stderr: { write: (t: string) => ((err += t), true) },
    stdin: new PassThrough(),
    env: {},
    cwd: "/",
    now: () => 0,
    outText: () => out,
    errText: () => err,
  };
}

const emfile = (path: string): Error => Object.assign(new Error(`EMFILE: too many open files, open '${path}'`), { code: "EMFILE" });

async function realViews(): Promise<ErrorViews> {
  const [view, json] = await Promise.all([import("../../../src/cli/views/error-view.js"), import("../../../src/cli/views/json-plan.js")]);
  return { ...view, stringifyDocument: json.stringifyDocument };
}

describe("the error views of a command", () => {
  it("are loaded when the command starts, so an error met with no file descriptor left is still shown", async () => {
    const io = capturedIo();
    let descriptorsLeft = true;
    const code = await main(["config", "validate", "--no-bundle"], {
      io,
      signal: new AbortController().signal,
      // The command uses up the process's descriptors, then fails on its own.
      loadEngine: () => {
        descriptorsLeft = false;
        return Promise.reject(new ConfigLoadError("failed to evaluate /app/svc.ts: the policy's own failure", { file: "/app/svc.ts" }));
      },
      loadErrorViews: () => (descriptorsLeft ? realViews() : Promise.reject(emfile("/app/dist/bin/error-view.js"))),
    });

    expect(code).toBe(1);
    expect(io.errText()).toContain("error PLATFORM_CONFIG_LOAD_FAILED: failed to evaluate /app/svc.ts: the policy's own failure");
    expect(io.errText()).not.toContain("EMFILE");
  });

  it("are not loaded for --version or --help", async () => {
    let loads = 0;
    const loadErrorViews = (): Promise<ErrorViews> => ((loads += 1), realViews());
    for (const argv of [["--version"], ["config", "plan", "--help"]]) {
      expect(await main(argv, { io: capturedIo(), signal: new AbortController().signal, loadErrorViews })).toBe(0);
    }
    expect(loads).toBe(0);
  });

  it("when they cannot load, a plain block still names the error, its code and why the view is missing", async () => {
    const io = capturedIo();
    const code = await main(["config", "validate", "--no-bundle", "--json"], {
      io,
      signal: new AbortController().signal,
      loadEngine: () => Promise.reject(new ConfigLoadError("failed to evaluate /app/svc.ts: the policy's own failure\nsecond line", { file: "/app/svc.ts" })),
      loadErrorViews: () => Promise.reject(emfile("/app/dist/bin/error-view.js")),
    });

    expect(code).toBe(1);
    expect(io.errText()).toBe(
      "error PLATFORM_CONFIG_LOAD_FAILED: failed to evaluate /app/svc.ts: the policy's own failure\n" +
        "  the full error view could not be loaded: EMFILE: too many open files, open '/app/dist/bin/error-view.js'\n" +
        "  hint: The process ran out of open files (EMFILE): raise the open-file limit (ulimit -n), then run svc config plan to see the branch's state and run the command again.\n",
    );
    expect(JSON.parse(io.outText())).toEqual({
      formatVersion: 1,
      command: "validate",
      error: {
        code: "PLATFORM_CONFIG_LOAD_FAILED",
        message: "failed to evaluate /app/svc.ts: the policy's own failure",
        requestId: null,
        hint: null,
        causes: [{ code: "EMFILE", message: "EMFILE: too many open files, open '/app/dist/bin/error-view.js'" }],
      },
    });
  });

  it("names a system error as the error view does (CLI_INTERNAL, never its own code as ours)", async () => {
    const io = capturedIo();
    const code = await main(["config", "validate", "--no-bundle", "--json"], {
      io,
      signal: new AbortController().signal,
      loadEngine: () => Promise.reject(emfile("/app/dist/bin/chunk-1.js")),
      loadErrorViews: () => Promise.reject(emfile("/app/dist/bin/error-view.js")),
    });

    expect(code).toBe(1);
    expect(io.errText()).toContain("error CLI_INTERNAL: Unexpected error: EMFILE: too many open files, open '/app/dist/bin/chunk-1.js'\n");
    expect(JSON.parse(io.outText()).error).toMatchObject({ code: "CLI_INTERNAL", causes: [{ code: "EMFILE" }] });
  });

  it("escapes outside text in the plain block and names a thrown value that is not an Error", async () => {
    const io = capturedIo();
    const code = await main(["config", "validate", "--no-bundle"], {
      io,
      signal: new AbortController().signal,
      loadEngine: () => Promise.reject("bucket \u001b[2Kx"),
      loadErrorViews: () => Promise.reject(new Error("view gone")),
    });

    expect(code).toBe(1);
    expect(io.errText()).toBe("error CLI_INTERNAL: Unexpected error: bucket \\u001b[2Kx\n  the full error view could not be loaded: view gone\n");
  });
});

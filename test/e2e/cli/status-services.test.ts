import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useEmulatorProject } from "./harness.js";

// The fixture policy, plus a custom domain for function hello on the default branch.
const { svc } = useEmulatorProject({
  per: "test",
  prepare: (cwd) => {
    const policy = readFileSync(join(cwd, "svc.ts"), "utf8").replace('source: "./functions/hello",', 'source: "./functions/hello", customDomains: ["shop.example.com"],');
    writeFileSync(join(cwd, "svc.ts"), policy);
  },
});

describe("what status and branch create show", () => {
  it("status lists every function's URL, the triggers and the custom domains with their CNAME targets, in text and JSON", async () => {
    expect((await svc(["config", "apply", "--yes"])).code).toBe(0);
    const text = await svc(["config", "status"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Functions \(1\)\n {2}hello {2}http:\/\/127\.0\.0\.1:\d+\/ {2}Hello$/m);
    expect(text.stdout).toMatch(/^Triggers \(1\)\n {2}hourly {2}schedule "0 \* \* \* \*" -> hello$/m);
    expect(text.stdout).toMatch(/^Custom domains \(1\)\n {2}shop\.example\.com {2}-> hello {2}CNAME \S+\.\S+/m);

    const json = JSON.parse((await svc(["config", "status", "--json"])).stdout) as Record<string, unknown>;
    expect(json.functions).toEqual([{ slug: "hello", name: "Hello", url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/), inherited: false }]);
    expect(json.triggers).toEqual([{ name: "hourly", type: "schedule", function: "hello", on: "0 * * * *", enabled: true, inherited: false }]);
    expect(json.customDomains).toEqual([{ domain: "shop.example.com", function: "hello", cnameTarget: expect.stringMatching(/\./), status: expect.any(String) }]);
  });

  it("branch create prints the URL of every function on the new branch", async () => {
    const run = await svc(["branch", "create", "pr-7"]);
    expect(run.code).toBe(0);
    const id = /^Created branch pr-7 \((br-[\w-]+)\)$/m.exec(run.stdout)?.[1] ?? "";
    expect(id).not.toBe("");
    // The new branch's function answers on a port of its own.
    expect(run.stdout).toMatch(/^Functions \(1\)\n {2}hello {2}http:\/\/127\.0\.0\.1:\d+\/ {2}Hello$/m);
    const json = JSON.parse((await svc(["branch", "create", "pr-8", "--json"])).stdout) as { functions: { slug: string; url: string }[] };
    expect(json.functions.map((f) => f.slug)).toEqual(["hello"]);
  });
});

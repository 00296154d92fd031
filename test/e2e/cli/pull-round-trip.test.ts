import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useEmulatorProject } from "./harness.js";

const project = useEmulatorProject();

/** The CLI project's policy plus a storage trigger and a hostname, so the branch has one of each kind. */
function writeFullPolicy(): void {
  const path = join(project.cwd(), "svc.ts");
  const policy = readFileSync(path, "utf8")
    .replace('source: "./functions/hello",', 'source: "./functions/hello",\n      customDomains: ["Hello.Example.com"],')
    .replace(
      'hourly: { type: "schedule", function: "hello", cron: "0 * * * *" },',
      'hourly: { type: "schedule", function: "hello", cron: "0 * * * *" },\n    "on-avatar": { type: "storage_object_created", function: "hello", bucket: "avatars", prefix: "in/", functionPath: "/upload", enabled: false },',
    );
  writeFileSync(path, policy);
}

/** What the pull lists after the policy: each trigger as its `triggers` entry, the hostname under its function. */
const PULLED_COMMENTS = `// Triggers on this branch (declare them under \`triggers\`, with the functions they call, to manage them):
//   hourly: { type: "schedule", function: "hello", cron: "0 * * * *" },
//   "on-avatar": { type: "storage_object_created", function: "hello", functionPath: "/upload", enabled: false, bucket: "avatars", prefix: "in/" },

// Custom domains on this branch (list them in their function's \`customDomains\` to manage them):
//   hello: { customDomains: ["hello.example.com"] },
`;

describe("svc config pull on a branch with functions, a bucket, triggers and a custom domain", () => {
  it("lists the triggers and the hostname as policy to declare, and the pulled file plans clean, naming that file and listing what it leaves unmanaged", async () => {
    writeFullPolicy();
    const applied = await project.svc(["config", "apply", "--yes", "--update-existing"]);
    expect(applied.code).toBe(0);

    const pulled = await project.svc(["config", "pull"]);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain(PULLED_COMMENTS);

    writeFileSync(join(project.cwd(), "pulled.ts"), pulled.stdout);
    const plan = await project.svc(["config", "plan", "--config", "pulled.ts", "--detailed-exitcode"]);
    expect(plan.code).toBe(0);
    expect(plan.stdout.startsWith("No changes. Branch main matches pulled.ts.\n")).toBe(true);
    // The pulled file states its prune flags (false), so the plan reads and lists what it leaves undeclared.
    const unmanaged = plan.stdout.split("\n").filter((line) => line.startsWith("  ") && plan.stdout.indexOf(line) > plan.stdout.indexOf("Unmanaged (on the branch, not declared in pulled.ts"));
    expect(unmanaged.map((line) => line.trim())).toEqual(["bucket.avatars", "domain.hello.example.com", "function.hello", "trigger.hourly", "trigger.on-avatar"]);
  });
});

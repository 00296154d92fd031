import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, deploy, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED, zipOf } from "./helpers.js";

const P = "alice-app-100001";
const B = `/projects/${P}/branches/br-alice-main-100001`;

describe("a state document used as a seed", () => {
  let source: RunningEmulator;
  let snapshot: Record<string, unknown>;
  let childId: string;
  let password: string;
  let newKey: string;
  beforeAll(async () => {
    source = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
    const alice = client(source, KEYS.alice);
    const child = await alice.call<{ branch: { id: string } }>("POST", `/projects/${P}/branches`, { branch: { name: "feature" }, endpoints: [{ type: "read_write" }] });
    childId = child.body.branch.id;
    const role = await alice.call<{ role: { password: string } }>("POST", `${B}/roles`, { role: { name: "app" } });
    password = role.body.role.password;
    await alice.call("POST", `${B}/buckets`, { name: "media" });
    await deploy(source, `${B}/functions/worker/deployments`, { zip: await zipOf({ "index.mjs": "x" }), environment: { MODE: "prod" } }, KEYS.alice);
    await alice.call("POST", `${B}/custom-domains`, { domain: "restore.example.com", entity_type: "function", entity_id: "worker" });
    newKey = (await alice.call<{ key: string }>("POST", "/api_keys", { key_name: "later" })).body.key;
    snapshot = source.state.snapshot({ secrets: true });
  });
  afterAll(() => source.close());

  it("restores projects, branches, passwords, buckets, functions, domains and keys in a new emulator", async () => {
    const restored = await startTestEmulator({ seed: snapshot });
    try {
      const alice = client(restored, KEYS.alice);
      expect((await alice.call("GET", `/projects/${P}/branches/${childId}`)).status).toBe(200);
      expect((await alice.call<{ password: string }>("GET", `${B}/roles/app/reveal_password`)).body.password).toBe(password);
      expect((await alice.call<{ buckets: { name: string }[] }>("GET", `${B}/buckets`)).body.buckets.map((b) => b.name)).toEqual(["media", "uploads"]);
      const fn = await alice.call<{ function: { active_deployment: { environment: string[] } } }>("GET", `${B}/functions/worker`);
      expect(fn.body.function.active_deployment.environment).toEqual(["MODE"]);
      expect((await client(restored, newKey).call("GET", "/users/me")).status).toBe(200);
      const bob = await client(restored, KEYS.bob).call("POST", "/projects/bob-app-200002/branches/br-bob-main-200002/custom-domains", { domain: "restore.example.com", entity_type: "function", entity_id: "api" });
      expect(bob.status).toBe(409);
      expect((await client(restored, KEYS.acme).call<{ projects: { id: string }[] }>("GET", "/projects")).body.projects.map((p) => p.id)).toEqual(["acme-site-300003"]);
    } finally {
      await restored.close();
    }
  });

  it("resets a running emulator to the snapshot over HTTP, dropping later changes", async () => {
    const alice = client(source, KEYS.alice);
    await alice.call("POST", `/projects/${P}/branches`, { branch: { name: "after-snapshot" } });
    const res = await fetch(`${source.url}/__emulator/reset`, { method: "POST", headers: { authorization: `Bearer ${KEYS.alice}`, "content-type": "application/json" }, body: JSON.stringify({ seed: snapshot }) });
    expect(res.status).toBe(200);
    const names = (await alice.call<{ branches: { name: string }[] }>("GET", `/projects/${P}/branches`)).body.branches.map((b) => b.name).sort();
    expect(names).toEqual(["feature", "main"]);
  });

  it("regenerates redacted secrets when the snapshot was taken without secrets", async () => {
    const restored = await startTestEmulator({ seed: source.state.snapshot() });
    try {
      const revealed = await client(restored, KEYS.alice).call<{ password: string }>("GET", `${B}/roles/app/reveal_password`);
      expect(revealed.body.password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(revealed.body.password).not.toBe(password);
    } finally {
      await restored.close();
    }
  });
});

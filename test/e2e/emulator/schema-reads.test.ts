/** Schema and log-field reads of a record-only branch, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BranchSchemaResponseSchema, CompareSchemaResponseSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED, type TestClient } from "./helpers.js";

const P = "alice-app-100001";
const MAIN = `/projects/${P}/branches/br-alice-main-100001`;

describe("schema reads without real databases", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  let child: string;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
    api = client(emu, KEYS.alice);
    child = (await api.call<{ branch: { id: string } }>("POST", `/projects/${P}/branches`, { branch: { name: "child" } })).body.branch.id;
  });
  afterAll(() => emu.close());

  it("returns an empty schema as SQL, and as JSON with format=json", async () => {
    const sql = await api.call("GET", `${MAIN}/schema?db_name=neondb`);
    expect([sql.status, BranchSchemaResponseSchema.parse(sql.body)]).toEqual([200, { sql: "" }]);
    const json = await api.call("GET", `${MAIN}/schema?db_name=neondb&format=json`);
    expect(BranchSchemaResponseSchema.parse(json.body)).toEqual({ json: { tables: [] } });
  });

  it("compares a branch with its parent by default: no difference between empty schemas", async () => {
    const res = await api.call("GET", `/projects/${P}/branches/${child}/compare_schema?db_name=neondb`);
    expect([res.status, CompareSchemaResponseSchema.parse(res.body)]).toEqual([200, { diff: "" }]);
  });

  it.each([
    ["schema without db_name", `${MAIN}/schema`, 400],
    ["schema of an unknown database", `${MAIN}/schema?db_name=nope`, 404],
    ["schema at a time in the future", `${MAIN}/schema?db_name=neondb&timestamp=2999-01-01T00:00:00Z`, 422],
    ["compare of a root branch without base_branch_id", `${MAIN}/compare_schema?db_name=neondb`, 400],
    ["compare with an unknown base", `${MAIN}/compare_schema?db_name=neondb&base_branch_id=br-missing-000000`, 404],
  ])("refuses a %s", async (_name, path, status) => {
    expect((await api.call("GET", path)).status).toBe(status);
  });
});

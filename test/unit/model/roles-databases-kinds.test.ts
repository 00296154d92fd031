import { describe, expect, it } from "vitest";
import { DATABASE_FIELDS } from "../../../src/kinds/database/fields.js";
import { fromWire, toWire } from "../../../src/model/kinds/field.js";
import { ROLE_FIELDS } from "../../../src/kinds/role/fields.js";
import { normalizeDatabaseOwners } from "../../../src/kinds/database/read.js";
import { normalizeRoles } from "../../../src/kinds/role/read.js";

describe("role descriptor", () => {
  it.each([
    ["a password role can log in", { name: "app", authentication_method: "password" }, true],
    ["a no_login role cannot", { name: "reader", authentication_method: "no_login" }, false],
    ["a role reporting no method can", { name: "old" }, true],
  ])("reads login from the wire: %s", (_, record, login) => {
    expect(fromWire(ROLE_FIELDS, record)).toEqual({ login });
    expect(normalizeRoles([record])).toEqual([{ name: record.name, login, protected: false }]);
  });

  it("writes no_login only for a role that cannot log in", () => {
    expect(toWire(ROLE_FIELDS, { login: false })).toEqual({ no_login: true });
    expect(toWire(ROLE_FIELDS, { login: true })).toEqual({});
  });
});

describe("database descriptor", () => {
  it("maps owner to owner_name both ways", () => {
    expect(fromWire(DATABASE_FIELDS, { name: "appdb", owner_name: "app_owner" })).toEqual({ owner: "app_owner" });
    expect(toWire(DATABASE_FIELDS, { owner: "app_owner" })).toEqual({ owner_name: "app_owner" });
  });

  it("reads every live owner the platform reports, even one a policy could not name", () => {
    expect(normalizeDatabaseOwners([{ name: "appdb", owner_name: "app_owner" }, { name: "stats", owner_name: "pg_monitor" }])).toEqual(new Map([["appdb", "app_owner"], ["stats", "pg_monitor"]]));
  });
});

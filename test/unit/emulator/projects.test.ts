/** Projects' domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { startOperations } from "../../../src/emulator/engine/operations.js";
import { deleteProject } from "../../../src/emulator/engine/project-deletion.js";
import { createProject, listProjects, recoverDeletedProject, updateProject } from "../../../src/emulator/engine/projects.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

const never = (): boolean => false;

describe("projects", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });

  it("creates a project with its default branch, owner role, database and read_write compute", () => {
    const created = createProject(w.world, w.principal, { name: "shop", branch: { name: "prod", role_name: "shop_owner", database_name: "shop" } }, never);
    expect([created.project.name, created.branch.name, created.branch.isDefault, created.role.name, created.databaseName, created.endpoint.type]).toEqual(["shop", "prod", true, "shop_owner", "shop", "read_write"]);
    expect([created.branch.databases.get("shop")?.ownerName, created.operations.map((o) => o.action)]).toEqual(["shop_owner", ["create_timeline", "start_compute"]]);
    expect(listProjects(w.world, w.principal, { search: "SHO" }).map((p) => p.id)).toEqual([created.project.id]);
  });

  it.each<[string, Parameters<typeof createProject>[2], [string, string]]>([
    ["an unknown region", { region_id: "mars-1" }, ["invalid", "invalid_request"]],
    ["an inverted compute range", { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 1 }, ["unprocessable", "unprocessable"]],
    ["history beyond the plan", { history_retention_seconds: 99_999_999 }, ["forbidden", "plan_limit_exceeded"]],
    ["an organization the user is not in", { org_id: "org-nope" }, ["not_found", "not_found"]],
  ])("refuses to create a project with %s", (_name, input, expected) => {
    const before = w.world.projects.size;
    expect(refusal(() => createProject(w.world, w.principal, input, never))).toEqual(expected);
    expect(w.world.projects.size).toBe(before);
  });

  it("updates settings with one apply_config per endpoint and history with apply_storage_config", () => {
    const operations = updateProject(w.world, w.project, { name: "renamed", history_retention_seconds: 3600, settings: { allowed_ips: { ips: [] } } }, never);
    expect([w.project.name, w.project.historyRetentionSeconds, operations.map((o) => o.action)]).toEqual(["renamed", 3600, ["apply_storage_config", "apply_config"]]);
    expect(refusal(() => updateProject(w.world, w.project, { default_endpoint_settings: { autoscaling_limit_min_cu: 8, autoscaling_limit_max_cu: 2 } }, never))).toEqual(["unprocessable", "unprocessable"]);
  });

  it("lists a deleted project only as recoverable, and recovers it once", () => {
    expect(refusal(() => recoverDeletedProject(w.world, w.project))).toEqual(["conflict", "conflict"]);
    deleteProject(w.world, w.project);
    expect([listProjects(w.world, w.principal, {}).length, listProjects(w.world, w.principal, { recoverable: true }).map((p) => p.id)]).toEqual([0, [w.project.id]]);
    recoverDeletedProject(w.world, w.project);
    expect(listProjects(w.world, w.principal, {}).map((p) => p.id)).toEqual([w.project.id]);
  });

  it("refuses to delete a project while an operation holds its lock", () => {
    const slow = unitWorld({ opRunMs: 1_000 });
    startOperations(slow.world, slow.project, [{ action: "apply_config", branchId: slow.main.id }]);
    expect(refusal(() => deleteProject(slow.world, slow.project))).toEqual(["locked", "locked"]);
    expect(slow.project.deletedAt).toBeUndefined();
  });
});

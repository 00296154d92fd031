/**
 * The claimable feature's view of the management emulator: which keys may sign in on the claim
 * page and for which owners, and how a claimed database becomes a visible project.
 */
import { Hono } from "hono";
import { newBranchRecord, newEndpointRecord, newProjectRecord, newRole } from "../engine/lifecycle.js";
import type { World } from "../store/world.js";
import type { ClaimableEnv } from "./env.js";
import type { ClaimAccounts } from "./claim-page-routes.js";
import type { InstantFeature } from "./index.js";
import type { ClaimAdoption } from "./service.js";

/**
 * Claim-page sign-in against the management keys: a personal key offers the personal account and
 * every organization its user belongs to; an organization key offers only its own organization.
 * The principal id is the user behind the key.
 */
export function worldAccounts(world: () => World): ClaimAccounts {
  return {
    signIn(apiKey) {
      const w = world();
      const principal = apiKey === "" ? null : w.authenticate(apiKey);
      if (principal === null) return null;
      const user = w.users.get(principal.userId);
      if (principal.orgId !== undefined) {
        const org = w.orgs.get(principal.orgId);
        return { id: principal.userId, label: `${principal.key.name} (organization ${org?.name ?? principal.orgId})`, owners: org ? [{ id: org.id, label: org.name }] : [] };
      }
      const orgs = [...w.orgs.values()].filter((o) => o.members.has(principal.userId));
      return {
        id: principal.userId,
        label: user?.email ?? principal.userId,
        owners: [{ id: "personal", label: `Personal account (${user?.email ?? principal.userId})` }, ...orgs.map((o) => ({ id: o.id, label: o.name }))],
      };
    },
  };
}

/**
 * Adopts a claimed database as a project of its new owner: region `aws-us-east-2`, the server's
 * major version, default branch `main` with one read-write endpoint, and the database and role
 * under their physical names (the app's URL keeps working). Throws when the owner vanished, which
 * fails the transfer.
 */
export function adoptIntoWorld(world: () => World): (adoption: ClaimAdoption) => void {
  return (adoption) => {
    const w = world();
    if (!w.users.has(adoption.principalId)) throw new Error(`the account that started the transfer no longer exists`);
    let orgId: string | undefined;
    if (adoption.owner.kind === "organization") {
      orgId = adoption.owner.orgId;
      if (!w.orgs.has(orgId)) throw new Error(`organization ${orgId} no longer exists`);
    }
    if (w.projects.has(adoption.projectId)) throw new Error(`project ${adoption.projectId} already exists`);
    const project = newProjectRecord(w, {
      id: adoption.projectId,
      name: adoption.projectName,
      regionId: "aws-us-east-2",
      pgVersion: adoption.pgVersion,
      ownerId: adoption.principalId,
      ...(orgId !== undefined ? { orgId } : {}),
    });
    project.localPostgres = { ...adoption.local };
    w.projects.set(project.id, project);
    const branch = newBranchRecord(w, project, { name: "main", isDefault: true });
    branch.roles.set(adoption.roleName, newRole(w, adoption.roleName, { password: adoption.password }));
    const now = w.clock.now();
    branch.databases.set(adoption.databaseName, { id: w.newDatabaseId(), name: adoption.databaseName, ownerName: adoption.roleName, createdAt: now, updatedAt: now });
    const endpoint = newEndpointRecord(w, project, branch.id, { type: "read_write" });
    endpoint.currentState = "idle";
    delete endpoint.pendingState;
  };
}

/**
 * `POST /__emulator/instant/check-storage`: runs the storage check now; only for
 * admin keys, like every `/__emulator` route.
 */
export function checkStorageRoute(world: () => World, feature: Pick<InstantFeature, "checkStorage">): Hono<ClaimableEnv> {
  const app = new Hono<ClaimableEnv>();
  app.post("/__emulator/instant/check-storage", async (c) => {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    const principal = token !== undefined ? world().authenticate(token) : null;
    if (principal === null) return c.json({ code: "unauthorized", message: "missing or invalid API key; send Authorization: Bearer <admin key>", request_id: c.get("rid") }, 401);
    if (!principal.key.admin) return c.json({ code: "forbidden", message: "the /__emulator routes need the bootstrap key or a seed key with admin: true", request_id: c.get("rid") }, 403);
    await feature.checkStorage();
    return c.json({ ok: true });
  });
  return app;
}

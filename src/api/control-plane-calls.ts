/**
 * Typed calls for projects, branches, endpoints, operations, databases, roles, connection
 * URIs and schema comparisons.
 */
import { envelopes } from "./response-envelopes.js";
import { CompareSchemaResponseSchema } from "./wire/branch-schema.js";
import { branchPath, seg, type CallContext } from "./call-context.js";
import { createOperationWatcher, type OperationWatcher } from "./operations.js";
import { collectPages, cursorFlavourCursor, nextFlavourCursor } from "./pagination.js";
import type { PlatformApi } from "./platform-api.js";

/** The names of the control-plane calls of {@link PlatformApi}; every other call is a feature call. */
export type ControlPlaneCallName =
  | "listProjects"
  | "getProject"
  | "listBranches"
  | "getBranch"
  | "createBranch"
  | "updateBranch"
  | "deleteBranch"
  | "listEndpoints"
  | "createEndpoint"
  | "updateEndpoint"
  | "deleteEndpoint"
  | "getOperation"
  | "waitForOperations"
  | "listDatabases"
  | "listRoles"
  | "createRole"
  | "deleteRole"
  | "createDatabase"
  | "updateDatabase"
  | "deleteDatabase"
  | "getConnectionUri"
  | "compareSchema";

/** The control-plane part of {@link PlatformApi}, its optional calls included. */
export type ControlPlaneCalls = Required<Pick<PlatformApi, ControlPlaneCallName>>;

/** Builds the control-plane calls on a call context. */
export function controlPlaneCalls(ctx: CallContext): ControlPlaneCalls {
  const { send } = ctx;
  const getOperation: ControlPlaneCalls["getOperation"] = async ({ projectId, operationId }) =>
    (
      await send({
        method: "GET",
        path: `/projects/${seg(projectId)}/operations/${seg(operationId)}`,
        schema: envelopes().operation,
      })
    ).data.operation;

  const watchers = new Map<string, OperationWatcher>();
  /** The one watcher of a project's operations, shared by every wait this client does. */
  const operationWatcher = (projectId: string): OperationWatcher => {
    let watcher = watchers.get(projectId);
    if (watcher === undefined) {
      watcher = createOperationWatcher({
        projectId,
        listOperations: async ({ cursor, limit }) => {
          const { data } = await send({
            method: "GET",
            path: `/projects/${seg(projectId)}/operations`,
            query: { limit, cursor },
            schema: envelopes().operationPage,
          });
          return { items: data.operations, nextCursor: cursorFlavourCursor(data.pagination) };
        },
        getOperation: (operationId) => getOperation({ projectId, operationId }),
        polling: ctx.config.polling,
        limitMs: ctx.config.timeouts.operationMs,
        sleep: ctx.config.transport.sleep,
        now: ctx.config.transport.now,
        ...(ctx.config.transport.signal === undefined ? {} : { signal: ctx.config.transport.signal }),
      });
      watchers.set(projectId, watcher);
    }
    return watcher;
  };

  return {
    listProjects: async (params = {}) =>
      collectPages(async (cursor) => {
        const { data } = await send({
          method: "GET",
          path: "/projects",
          query: { limit: 400, cursor, search: params.search, org_id: params.orgId },
          schema: envelopes().projectPage,
        });
        return { items: data.projects, nextCursor: cursorFlavourCursor(data.pagination) };
      }),

    getProject: async ({ projectId }) =>
      (await send({ method: "GET", path: `/projects/${seg(projectId)}`, schema: envelopes().project })).data.project,

    listBranches: async ({ projectId, search }) =>
      collectPages(async (cursor) => {
        const { data } = await send({
          method: "GET",
          path: `/projects/${seg(projectId)}/branches`,
          query: { limit: 10000, cursor, search },
          schema: envelopes().branchPage,
        });
        const items = data.branches.map((b) => ({ ...b, annotation: { ...(data.annotations?.[b.id]?.value ?? {}) } }));
        return { items, nextCursor: nextFlavourCursor(data.pagination) };
      }),

    getBranch: async (ref) => (await send({ method: "GET", path: branchPath(ref), schema: envelopes().branch })).data.branch,

    createBranch: async ({ projectId, branch, endpoints, annotation_value }) => {
      const { data } = await send({
        method: "POST",
        path: `/projects/${seg(projectId)}/branches`,
        json: { ...(branch === undefined ? {} : { branch }), ...(endpoints === undefined ? {} : { endpoints }), ...(annotation_value === undefined ? {} : { annotation_value }) },
        schema: envelopes().branchCreated,
      });
      return data;
    },

    updateBranch: async ({ branch, ...ref }) =>
      (
        await send({
          method: "PATCH",
          path: branchPath(ref),
          json: { branch },
          schema: envelopes().branchUpdated,
        })
      ).data,

    deleteBranch: async (ref) => {
      const { status, data } = await send({
        method: "DELETE",
        path: branchPath(ref),
        schema: envelopes().operations,
      });
      return { deleted: status !== 204, operations: data.operations };
    },

    listEndpoints: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/endpoints`, schema: envelopes().endpoints })).data
        .endpoints,

    createEndpoint: async ({ projectId, branchId, endpoint }) =>
      (
        await send({
          method: "POST",
          path: `/projects/${seg(projectId)}/endpoints`,
          json: { endpoint: { branch_id: branchId, ...endpoint } },
          schema: envelopes().endpointChanged,
        })
      ).data,

    deleteEndpoint: async ({ projectId, endpointId }) => {
      const { status, data } = await send({
        method: "DELETE",
        path: `/projects/${seg(projectId)}/endpoints/${seg(endpointId)}`,
        schema: envelopes().operations,
      });
      return { deleted: status !== 204, operations: data.operations };
    },

    updateEndpoint: async ({ projectId, endpointId, endpoint }) =>
      (
        await send({
          method: "PATCH",
          path: `/projects/${seg(projectId)}/endpoints/${seg(endpointId)}`,
          json: { endpoint },
          schema: envelopes().endpointChanged,
        })
      ).data,

    getOperation,

    waitForOperations: ({ projectId, operations }) => operationWatcher(projectId).wait(operations),

    listDatabases: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/databases`, schema: envelopes().databases })).data
        .databases,

    listRoles: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/roles`, schema: envelopes().roles })).data.roles,

    createRole: async ({ name, fields, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/roles`,
          json: { role: { name, ...fields } },
          schema: envelopes().roleCreated,
        })
      ).data,

    deleteRole: async ({ role, ...ref }) =>
      (await send({ method: "DELETE", path: `${branchPath(ref)}/roles/${seg(role)}`, schema: envelopes().operations })).data,

    createDatabase: async ({ name, fields, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/databases`,
          json: { database: { name, ...fields } },
          schema: envelopes().databaseChanged,
        })
      ).data,

    updateDatabase: async ({ database, fields, ...ref }) =>
      (
        await send({
          method: "PATCH",
          path: `${branchPath(ref)}/databases/${seg(database)}`,
          json: { database: fields },
          schema: envelopes().databaseChanged,
        })
      ).data,

    deleteDatabase: async ({ database, ...ref }) =>
      (await send({ method: "DELETE", path: `${branchPath(ref)}/databases/${seg(database)}`, schema: envelopes().operations })).data,

    getConnectionUri: async ({ projectId, branchId, databaseName, roleName, endpointId, pooled }) =>
      (
        await send({
          method: "GET",
          path: `/projects/${seg(projectId)}/connection_uri`,
          query: { branch_id: branchId, database_name: databaseName, role_name: roleName, endpoint_id: endpointId, pooled },
          schema: envelopes().connectionUri,
        })
      ).data.uri,

    compareSchema: async ({ databaseName, baseBranchId, ...ref }) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/compare_schema`, query: { db_name: databaseName, base_branch_id: baseBranchId }, schema: CompareSchemaResponseSchema })).data.diff,
  };
}

/**
 * Typed calls for projects, branches, endpoints, operations, databases, roles, connection
 * URIs and schema comparisons.
 */
import { z } from "zod";
import { CompareSchemaResponseSchema } from "./wire/branch-schema.js";
import { branchPath, seg, type CallContext } from "./call-context.js";
import { createOperationWatcher, type OperationWatcher } from "./operations.js";
import { collectPages, cursorFlavourCursor, nextFlavourCursor } from "./pagination.js";
import type { PlatformApi } from "./platform-api.js";
import {
  AnnotationSchema,
  BranchSchema,
  CursorPaginationField,
  DatabaseSchema,
  EndpointSchema,
  NextPaginationField,
  OperationSchema,
  OperationsField,
  ProjectSchema,
  RoleSchema,
} from "./response-schemas.js";

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
  | "updateEndpoint"
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

/** The control-plane part of {@link PlatformApi}. */
export type ControlPlaneCalls = Pick<PlatformApi, ControlPlaneCallName>;

/** Builds the control-plane calls on a call context. */
export function controlPlaneCalls(ctx: CallContext): ControlPlaneCalls {
  const { send } = ctx;
  const getOperation: ControlPlaneCalls["getOperation"] = async ({ projectId, operationId }) =>
    (
      await send({
        method: "GET",
        path: `/projects/${seg(projectId)}/operations/${seg(operationId)}`,
        schema: z.object({ operation: OperationSchema }),
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
            schema: z.object({ operations: z.array(OperationSchema), pagination: CursorPaginationField }),
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
          schema: z.object({ projects: z.array(ProjectSchema), pagination: CursorPaginationField }),
        });
        return { items: data.projects, nextCursor: cursorFlavourCursor(data.pagination) };
      }),

    getProject: async ({ projectId }) =>
      (await send({ method: "GET", path: `/projects/${seg(projectId)}`, schema: z.object({ project: ProjectSchema }) })).data.project,

    listBranches: async ({ projectId, search }) =>
      collectPages(async (cursor) => {
        const { data } = await send({
          method: "GET",
          path: `/projects/${seg(projectId)}/branches`,
          query: { limit: 10000, cursor, search },
          schema: z.object({ branches: z.array(BranchSchema), annotations: z.record(z.string(), AnnotationSchema).nullish(), pagination: NextPaginationField }),
        });
        const items = data.branches.map((b) => ({ ...b, annotation: { ...(data.annotations?.[b.id]?.value ?? {}) } }));
        return { items, nextCursor: nextFlavourCursor(data.pagination) };
      }),

    getBranch: async (ref) => (await send({ method: "GET", path: branchPath(ref), schema: z.object({ branch: BranchSchema }) })).data.branch,

    createBranch: async ({ projectId, branch, endpoints, annotation_value }) => {
      const { data } = await send({
        method: "POST",
        path: `/projects/${seg(projectId)}/branches`,
        json: { ...(branch === undefined ? {} : { branch }), ...(endpoints === undefined ? {} : { endpoints }), ...(annotation_value === undefined ? {} : { annotation_value }) },
        schema: z.object({
          branch: BranchSchema,
          endpoints: z.array(EndpointSchema).nullish().transform((v) => v ?? []),
          databases: z.array(DatabaseSchema).nullish().transform((v) => v ?? []),
          roles: z.array(RoleSchema).nullish().transform((v) => v ?? []),
          operations: OperationsField,
        }),
      });
      return data;
    },

    updateBranch: async ({ branch, ...ref }) =>
      (
        await send({
          method: "PATCH",
          path: branchPath(ref),
          json: { branch },
          schema: z.object({ branch: BranchSchema, operations: OperationsField }),
        })
      ).data,

    deleteBranch: async (ref) => {
      const { status, data } = await send({
        method: "DELETE",
        path: branchPath(ref),
        schema: z.object({ operations: OperationsField }),
      });
      return { deleted: status !== 204, operations: data.operations };
    },

    listEndpoints: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/endpoints`, schema: z.object({ endpoints: z.array(EndpointSchema) }) })).data
        .endpoints,

    updateEndpoint: async ({ projectId, endpointId, endpoint }) =>
      (
        await send({
          method: "PATCH",
          path: `/projects/${seg(projectId)}/endpoints/${seg(endpointId)}`,
          json: { endpoint },
          schema: z.object({ endpoint: EndpointSchema, operations: OperationsField }),
        })
      ).data,

    getOperation,

    waitForOperations: ({ projectId, operations }) => operationWatcher(projectId).wait(operations),

    listDatabases: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/databases`, schema: z.object({ databases: z.array(DatabaseSchema) }) })).data
        .databases,

    listRoles: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/roles`, schema: z.object({ roles: z.array(RoleSchema) }) })).data.roles,

    createRole: async ({ name, fields, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/roles`,
          json: { role: { name, ...fields } },
          schema: z.object({ role: RoleSchema, operations: OperationsField }),
        })
      ).data,

    deleteRole: async ({ role, ...ref }) =>
      (await send({ method: "DELETE", path: `${branchPath(ref)}/roles/${seg(role)}`, schema: z.object({ operations: OperationsField }) })).data,

    createDatabase: async ({ name, fields, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/databases`,
          json: { database: { name, ...fields } },
          schema: z.object({ database: DatabaseSchema, operations: OperationsField }),
        })
      ).data,

    updateDatabase: async ({ database, fields, ...ref }) =>
      (
        await send({
          method: "PATCH",
          path: `${branchPath(ref)}/databases/${seg(database)}`,
          json: { database: fields },
          schema: z.object({ database: DatabaseSchema, operations: OperationsField }),
        })
      ).data,

    deleteDatabase: async ({ database, ...ref }) =>
      (await send({ method: "DELETE", path: `${branchPath(ref)}/databases/${seg(database)}`, schema: z.object({ operations: OperationsField }) })).data,

    getConnectionUri: async ({ projectId, branchId, databaseName, roleName, endpointId, pooled }) =>
      (
        await send({
          method: "GET",
          path: `/projects/${seg(projectId)}/connection_uri`,
          query: { branch_id: branchId, database_name: databaseName, role_name: roleName, endpoint_id: endpointId, pooled },
          schema: z.object({ uri: z.string() }),
        })
      ).data.uri,

    compareSchema: async ({ databaseName, baseBranchId, ...ref }) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/compare_schema`, query: { db_name: databaseName, base_branch_id: baseBranchId }, schema: CompareSchemaResponseSchema })).data.diff,
  };
}

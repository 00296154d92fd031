/**
 * The response envelopes of the typed calls (`{ function: … }`, `{ buckets: [...] }`), built once
 * on first use and shared by every client. zod compiles a schema the first time it parses with
 * it, so an envelope built per request would be compiled again for every request.
 */
import { z } from "zod";
import {
  AnnotationSchema,
  ApiKeyRecordSchema,
  BranchSchema,
  BucketSchema,
  CredentialSchema,
  CursorPaginationField,
  CustomDomainSchema,
  DatabaseSchema,
  DeploymentSchema,
  EndpointSchema,
  FunctionBuildSchema,
  FunctionSchema,
  NextPaginationField,
  OperationSchema,
  OperationsField,
  ProjectSchema,
  RoleSchema,
  TriggerSchema,
} from "./response-schemas.js";

const orEmpty = <T>(v: T[] | null | undefined): T[] => v ?? [];

function buildEnvelopes() {
  return {
    operation: z.object({ operation: OperationSchema }),
    operationPage: z.object({ operations: z.array(OperationSchema), pagination: CursorPaginationField }),
    operations: z.object({ operations: OperationsField }),
    projectPage: z.object({ projects: z.array(ProjectSchema), pagination: CursorPaginationField }),
    project: z.object({ project: ProjectSchema }),
    branchPage: z.object({ branches: z.array(BranchSchema), annotations: z.record(z.string(), AnnotationSchema).nullish(), pagination: NextPaginationField }),
    branch: z.object({ branch: BranchSchema }),
    branchCreated: z.object({
      branch: BranchSchema,
      endpoints: z.array(EndpointSchema).nullish().transform(orEmpty),
      databases: z.array(DatabaseSchema).nullish().transform(orEmpty),
      roles: z.array(RoleSchema).nullish().transform(orEmpty),
      operations: OperationsField,
    }),
    branchUpdated: z.object({ branch: BranchSchema, operations: OperationsField }),
    endpoints: z.object({ endpoints: z.array(EndpointSchema) }),
    endpointChanged: z.object({ endpoint: EndpointSchema, operations: OperationsField }),
    databases: z.object({ databases: z.array(DatabaseSchema) }),
    databaseChanged: z.object({ database: DatabaseSchema, operations: OperationsField }),
    roles: z.object({ roles: z.array(RoleSchema) }),
    roleCreated: z.object({ role: RoleSchema, operations: OperationsField }),
    connectionUri: z.object({ uri: z.string() }),
    dataApiCreated: z.object({ url: z.string().nullish() }),
    buckets: z.object({ buckets: z.array(BucketSchema) }),
    bucket: z.object({ bucket: BucketSchema }),
    functionPage: z.object({ functions: z.array(FunctionSchema), pagination: NextPaginationField }),
    functionBuildPage: z.object({ functions: z.array(FunctionBuildSchema), pagination: NextPaginationField }),
    function: z.object({ function: FunctionSchema }),
    deployment: z.object({ deployment: DeploymentSchema }),
    triggers: z.object({ triggers: z.array(TriggerSchema) }),
    trigger: z.object({ trigger: TriggerSchema }),
    customDomainPage: z.object({ custom_domains: z.array(CustomDomainSchema), pagination: NextPaginationField }),
    credentials: z.object({ credentials: z.array(CredentialSchema) }),
    apiKeys: z.array(ApiKeyRecordSchema),
  };
}

let built: ReturnType<typeof buildEnvelopes> | undefined;

/** The envelopes, built on the first call. */
export function envelopes(): ReturnType<typeof buildEnvelopes> {
  built ??= buildEnvelopes();
  return built;
}

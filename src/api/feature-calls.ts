/**
 * Typed calls for branch features: auth, Data API, storage, functions and deployments,
 * triggers, custom domains, credentials, AI gateway and API keys.
 */
import type { z } from "zod";
import { envelopes } from "./response-envelopes.js";
import { branchPath, checkBucketName, doneOn404, hasStatus, nullOn404, seg, type CallContext } from "./call-context.js";
import type { ControlPlaneCallName } from "./control-plane-calls.js";
import { encodeMultipart, type MultipartBody, type MultipartPart } from "./multipart-body.js";
import { collectPages, nextFlavourCursor } from "./pagination.js";
import type { BranchRef, CreateDeploymentParams, PlatformApi } from "./platform-api.js";
import {
  AiGatewaySchema,
  ApiKeyCreatedSchema,
  ApiKeyRecordSchema,
  AuthCredentialsSchema,
  AuthIntegrationSchema,
  BucketObjectPageSchema,
  CredentialSecretSchema,
  CustomDomainSchema,
  DataApiSchema,
  IgnoredBodySchema,
} from "./response-schemas.js";

/** Feature names used in `FeatureUnavailableError`. */
const FEATURE = {
  storage: "Object storage",
  functions: "Functions",
  triggers: "Triggers",
  domains: "Custom domains",
  aiGateway: "AI gateway",
  auth: "Branch auth",
  dataApi: "Data API",
} as const;

/** The feature part of {@link PlatformApi}, its optional calls included. */
export type FeatureCalls = Required<Omit<PlatformApi, ControlPlaneCallName>>;

/** Builds the feature calls on a call context. */
export function featureCalls(ctx: CallContext): FeatureCalls {
  const { send } = ctx;
  const ignored = IgnoredBodySchema;
  const getAuth: FeatureCalls["getAuth"] = (ref) =>
    nullOn404(
      send({ method: "GET", path: `${branchPath(ref)}/auth`, schema: AuthIntegrationSchema, feature: FEATURE.auth }).then((r) => r.data),
    );
  /** Every page of `GET …/functions`, each read with `page`. */
  const functionPages = <T>(ref: BranchRef, page: z.ZodType<{ functions: T[]; pagination?: Parameters<typeof nextFlavourCursor>[0] }>): Promise<T[]> =>
    collectPages(async (cursor) => {
      const { data } = await send({ method: "GET", path: `${branchPath(ref)}/functions`, query: { limit: 1000, cursor }, schema: page, feature: FEATURE.functions });
      return { items: data.functions, nextCursor: nextFlavourCursor(data.pagination) };
    });
  const dataApiPath = (ref: { projectId: string; branchId: string; databaseName: string }): string =>
    `${branchPath(ref)}/data-api/${seg(ref.databaseName)}`;

  return {
    getAuth,

    createAuth: async ({ authProvider, databaseName, ...ref }) => {
      try {
        const { data } = await send({
          method: "POST",
          path: `${branchPath(ref)}/auth`,
          json: { auth_provider: authProvider ?? "better_auth", ...(databaseName === undefined ? {} : { database_name: databaseName }) },
          schema: AuthCredentialsSchema,
          feature: FEATURE.auth,
        });
        return { credentials: data, alreadyEnabled: false };
      } catch (err) {
        if (!hasStatus(err, 409)) throw err;
        const existing = await getAuth(ref);
        if (existing === null) throw err;
        const { auth_provider, jwks_url, base_url, schema_name } = existing;
        return { credentials: { auth_provider, jwks_url, base_url, schema_name }, alreadyEnabled: true };
      }
    },

    getDataApi: async (ref) =>
      nullOn404(send({ method: "GET", path: dataApiPath(ref), schema: DataApiSchema, feature: FEATURE.dataApi }).then((r) => r.data)),

    createDataApi: async ({ projectId, branchId, databaseName, ...body }) => {
      try {
        const { data } = await send({
          method: "POST",
          path: dataApiPath({ projectId, branchId, databaseName }),
          json: body,
          schema: envelopes().dataApiCreated,
          feature: FEATURE.dataApi,
        });
        return { ...(data.url ? { url: data.url } : {}), alreadyEnabled: false };
      } catch (err) {
        if (hasStatus(err, 409)) return { alreadyEnabled: true };
        throw err;
      }
    },

    updateDataApi: async ({ settings, ...ref }) => {
      await send({ method: "PATCH", path: dataApiPath(ref), json: { settings }, schema: ignored, feature: FEATURE.dataApi });
    },

    deleteDataApi: async (ref) => doneOn404(send({ method: "DELETE", path: dataApiPath(ref), schema: ignored, feature: FEATURE.dataApi })),

    listBuckets: async (ref) =>
      (
        await send({
          method: "GET",
          path: `${branchPath(ref)}/buckets`,
          schema: envelopes().buckets,
          feature: FEATURE.storage,
        })
      ).data.buckets,

    createBucket: async ({ name, access_level, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/buckets`,
          json: { name: checkBucketName(name), ...(access_level === undefined ? {} : { access_level }) },
          schema: envelopes().bucket,
          feature: FEATURE.storage,
        })
      ).data.bucket,

    deleteBucket: async ({ bucket, ...ref }) =>
      doneOn404(send({ method: "DELETE", path: `${branchPath(ref)}/buckets/${seg(bucket, "bucket name")}`, schema: ignored, feature: FEATURE.storage })),

    listBucketObjects: async ({ bucket, prefix, cursor, limit, ...ref }) =>
      (
        await send({
          method: "GET",
          path: `${branchPath(ref)}/buckets/${seg(bucket, "bucket name")}/objects`,
          query: { prefix, cursor, limit: limit ?? 1000 },
          schema: BucketObjectPageSchema,
          feature: FEATURE.storage,
        })
      ).data,

    listFunctions: (ref) => functionPages(ref, envelopes().functionPage),

    listFunctionBuilds: (ref) => functionPages(ref, envelopes().functionBuildPage),

    getFunction: async ({ slug, ...ref }) =>
      (
        await send({
          method: "GET",
          path: `${branchPath(ref)}/functions/${seg(slug)}`,
          schema: envelopes().function,
          feature: FEATURE.functions,
        })
      ).data.function,

    createDeployment: async (params) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(params)}/functions/${seg(params.slug)}/deployments`,
          multipart: deploymentBody(params),
          upload: params.zip !== undefined,
          schema: envelopes().deployment,
          feature: FEATURE.functions,
        })
      ).data.deployment,

    updateFunction: async ({ slug, name, ...ref }) =>
      (
        await send({
          method: "PATCH",
          path: `${branchPath(ref)}/functions/${seg(slug)}`,
          json: { name },
          schema: envelopes().function,
          feature: FEATURE.functions,
        })
      ).data.function,

    deleteFunction: async ({ slug, ...ref }) =>
      doneOn404(send({ method: "DELETE", path: `${branchPath(ref)}/functions/${seg(slug)}`, schema: ignored, feature: FEATURE.functions })),

    listTriggers: async (ref) =>
      (
        await send({
          method: "GET",
          path: `${branchPath(ref)}/triggers`,
          schema: envelopes().triggers,
          feature: FEATURE.triggers,
        })
      ).data.triggers,

    createTrigger: async ({ trigger, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/triggers`,
          json: trigger,
          schema: envelopes().trigger,
          feature: FEATURE.triggers,
        })
      ).data.trigger,

    updateTrigger: async ({ triggerId, trigger, ...ref }) =>
      (
        await send({
          method: "PATCH",
          path: `${branchPath(ref)}/triggers/${seg(triggerId)}`,
          json: trigger,
          schema: envelopes().trigger,
          feature: FEATURE.triggers,
        })
      ).data.trigger,

    deleteTrigger: async ({ triggerId, ...ref }) =>
      doneOn404(send({ method: "DELETE", path: `${branchPath(ref)}/triggers/${seg(triggerId)}`, schema: ignored, feature: FEATURE.triggers })),

    listCustomDomains: async (ref) =>
      collectPages(async (cursor) => {
        const { data } = await send({
          method: "GET",
          path: `${branchPath(ref)}/custom-domains`,
          query: { limit: 1000, cursor },
          schema: envelopes().customDomainPage,
          feature: FEATURE.domains,
        });
        return { items: data.custom_domains, nextCursor: nextFlavourCursor(data.pagination) };
      }),

    createCustomDomain: async ({ domain, entity_type, entity_id, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/custom-domains`,
          json: { domain, entity_type: entity_type ?? "function", entity_id },
          schema: CustomDomainSchema,
          feature: FEATURE.domains,
        })
      ).data,

    deleteCustomDomain: async ({ domain, ...ref }) =>
      doneOn404(send({ method: "DELETE", path: `${branchPath(ref)}/custom-domains/${seg(domain)}`, schema: ignored, feature: FEATURE.domains })),

    listCredentials: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/credentials`, schema: envelopes().credentials })).data
        .credentials,

    createCredential: async ({ scopes, name, expires_at, ...ref }) =>
      (
        await send({
          method: "POST",
          path: `${branchPath(ref)}/credentials`,
          json: { scopes, principal_type: "user", ...(name === undefined ? {} : { name }), ...(expires_at === undefined ? {} : { expires_at }) },
          schema: CredentialSecretSchema,
        })
      ).data,

    deleteCredential: async ({ tokenId, ...ref }) =>
      doneOn404(send({ method: "DELETE", path: `${branchPath(ref)}/credentials/${seg(tokenId)}`, schema: ignored })),

    getAiGateway: async (ref) =>
      (await send({ method: "GET", path: `${branchPath(ref)}/ai_gateway`, schema: AiGatewaySchema, feature: FEATURE.aiGateway })).data,

    listApiKeys: async () => (await send({ method: "GET", path: "/api_keys", schema: envelopes().apiKeys })).data,

    createApiKey: async ({ name }) => (await send({ method: "POST", path: "/api_keys", json: { key_name: name }, schema: ApiKeyCreatedSchema })).data,

    revokeApiKey: async ({ keyId }) => (await send({ method: "DELETE", path: `/api_keys/${seg(keyId)}`, schema: ApiKeyRecordSchema })).data,
  };
}

/**
 * The multipart body of a deployment: `zip` first (file `bundle.zip`,
 * `application/zip`), then `runtime`, then `environment` as a JSON-encoded string. Encoded
 * here, so it works with any `fetch`.
 */
export function deploymentBody(params: Pick<CreateDeploymentParams, "zip" | "runtime" | "environment">): MultipartBody {
  const parts: MultipartPart[] = [];
  if (params.zip !== undefined) parts.push({ kind: "file", name: "zip", filename: "bundle.zip", contentType: "application/zip", bytes: params.zip });
  if (params.runtime !== undefined) parts.push({ kind: "text", name: "runtime", value: params.runtime });
  if (params.environment !== undefined) parts.push({ kind: "text", name: "environment", value: JSON.stringify(params.environment) });
  return encodeMultipart(parts);
}

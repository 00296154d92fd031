/**
 * The management API v2 wire schemas, shared by the typed client and the emulator so the
 * two cannot drift. Response schemas are lenient (unknown fields kept, optional fields optional);
 * request schemas validate known fields and strip unknown ones.
 */
export * from "./common.js";
export * from "./projects.js";
export * from "./operations.js";
export * from "./branches.js";
export * from "./endpoints.js";
export * from "./roles-databases.js";
export * from "../../kinds/role/wire.js";
export * from "./auth.js";
export * from "./auth-settings.js";
export * from "../../kinds/dataApi/wire.js";
export * from "./storage.js";
export * from "../../kinds/bucket/wire.js";
export * from "./functions.js";
export * from "./triggers.js";
export * from "../../kinds/domain/wire.js";
export * from "./credentials.js";
export * from "./api-keys.js";
export * from "./account.js";
export * from "./access.js";
export * from "./legacy-auth.js";
export * from "./snapshots.js";
export * from "./logs.js";
export * from "./branch-schema.js";

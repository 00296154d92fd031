/**
 * A state document as a seed: `GET /__emulator/state?secrets=true` (or
 * `snapshot({ secrets: true })`) can be fed back as `--seed`, `seed` or `reset(seed)`, so tests
 * snapshot and restore worlds. Keys come back by their hashes; redacted secrets are regenerated.
 */

type Obj = Record<string, unknown>;

const REDACTED = "[redacted]";

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isObj) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== REDACTED ? value : undefined;
}

/** Whether a parsed JSON value is a state document rather than a seed document. */
export function isStateDocument(raw: unknown): raw is Obj {
  return isObj(raw) && raw["format"] === "svc-emulator-state";
}

function keysOf(doc: Obj, kind: string, accountId: unknown): Obj[] {
  return list(doc["api_keys"])
    .filter((k) => k["kind"] === kind && k["account_id"] === accountId)
    .map((k) => ({ name: k["name"], hash: k["hash"], revoked: k["revoked"], ...(kind === "personal" ? { admin: k["admin"] } : { project_id: k["project_id"] }) }));
}

function branchSeed(doc: Obj, project: Obj, branch: Obj, names: Map<unknown, unknown>): Obj {
  const child = branch["parent_id"] !== undefined;
  const local = (items: Obj[]): Obj[] => (child ? items.filter((i) => i["inherited"] !== true) : items);
  const buckets = local(list(branch["buckets"]));
  return {
    id: branch["id"],
    name: branch["name"],
    ...(child ? { parent: names.get(branch["parent_id"]) } : {}),
    default: branch["default"],
    protected: branch["protected"],
    endpoints: list(project["endpoints"])
      .filter((e) => e["branch_id"] === branch["id"])
      .map((e) => ({ id: e["id"], name: e["name"], type: e["type"], state: e["current_state"] === "active" ? "active" : "idle", autoscaling_limit_min_cu: e["min_cu"], autoscaling_limit_max_cu: e["max_cu"], suspend_timeout_seconds: e["suspend_timeout_seconds"] })),
    roles: list(branch["roles"]).map((r) => ({ name: r["name"], ...(text(r["password"]) !== undefined ? { password: text(r["password"]) } : {}) })),
    databases: list(branch["databases"]).map((d) => ({ name: d["name"], owner_name: d["owner_name"] })),
    buckets: buckets.map((b) => ({ name: b["name"], access_level: b["access_level"] })),
    objects: buckets.flatMap((b) => list(b["objects"]).map((o) => ({ bucket: b["name"], key: o["key"], size: o["size"] }))),
    functions: local(list(branch["functions"])).map((f) => {
      const latest = list(f["deployments"]).at(-1);
      const env = isObj(latest?.["environment"]) ? latest["environment"] : {};
      const values = Object.entries(env).filter(([, v]) => text(v) !== undefined);
      return { slug: f["slug"], name: f["name"], ...(values.length > 0 ? { environment: Object.fromEntries(values) } : {}) };
    }),
    triggers: local(list(branch["triggers"])).map((t) => ({
      id: t["trigger_id"],
      name: t["name"],
      function_slug: t["function_slug"],
      type: t["type"],
      enabled: t["enabled"],
      ...(t["cron"] !== undefined ? { cron: t["cron"] } : {}),
      ...(t["bucket_name"] !== undefined ? { bucket_name: t["bucket_name"] } : {}),
      ...(t["prefix"] !== undefined ? { prefix: t["prefix"] } : {}),
    })),
    custom_domains: list(doc["domains"])
      .filter((d) => d["project_id"] === project["id"] && d["branch_id"] === branch["id"])
      .map((d) => ({ domain: d["domain"], function_slug: d["entity_id"] })),
    ...(isObj(branch["auth"]) ? { auth: { auth_provider: branch["auth"]["auth_provider"], database_name: branch["auth"]["database_name"] } } : {}),
    data_api: list(branch["data_api"]).map((d) => ({ database: d["database"], settings: d["settings"] ?? null })),
  };
}

/** Converts a state document into a seed document (validated by the caller like any seed). */
export function stateToSeed(doc: Obj): unknown {
  const users = list(doc["users"]);
  const emailOf = new Map(users.map((u) => [u["id"], u["email"]]));
  return {
    version: 1,
    users: users.map((u) => ({ id: u["id"], email: u["email"], name: u["name"], plan: u["plan"], api_keys: keysOf(doc, "personal", u["id"]) })),
    organizations: list(doc["organizations"]).map((o) => ({
      id: o["id"],
      name: o["name"],
      plan: o["plan"],
      platform_features: o["platform_features"],
      ...(typeof o["project_role_management"] === "boolean" ? { project_role_management: o["project_role_management"] } : {}),
      ...(o["member_default_project_role"] !== undefined ? { member_default_project_role: o["member_default_project_role"] } : {}),
      members: list(o["members"]).map((m) => ({ email: emailOf.get(m["user_id"]), role: m["role"] })),
      api_keys: keysOf(doc, "org", o["id"]),
    })),
    projects: list(doc["projects"])
      .filter((p) => p["deleted"] !== true)
      .map((p) => {
        const branches = list(p["branches"]);
        const names = new Map(branches.map((b) => [b["id"], b["name"]]));
        return {
          owner: p["org_id"] ?? emailOf.get(p["owner_id"]),
          id: p["id"],
          name: p["name"],
          region_id: p["region_id"],
          pg_version: p["pg_version"],
          store_passwords: p["store_passwords"],
          history_retention_seconds: p["history_retention_seconds"],
          permissions: list(p["permissions"]).filter((x) => x["revoked_at"] === undefined).map((x) => ({ email: x["email"] })),
          member_roles: list(p["member_roles"]).map((m) => ({ email: emailOf.get(m["user_id"]), role: m["role"] })),
          advisor_issues: list(p["advisor_issues"]).map(({ branch_id: branchId, ...issue }) => ({ ...issue, branch: names.get(branchId) })),
          branches: branches.map((b) => branchSeed(doc, p, b, names)),
        };
      }),
    ...(Array.isArray(doc["regions"]) ? { regions: doc["regions"] } : {}),
  };
}

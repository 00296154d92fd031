/** Regions, the current user, their organizations and `GET /auth`. */
import { Hono, type Context } from "hono";
import { isoTime } from "../engine/clock.js";
import type { EmulatorEnv } from "../http/env.js";
import { forbidden } from "../http/errors.js";
import { currentUserView } from "../http/user-view.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { UserRec } from "../store/records.js";

/** Routes of the account group. */
export function accountRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const personalUser = (c: Context<EmulatorEnv>): UserRec => {
    const principal = c.get("principal");
    const user = rt.world.users.get(principal.userId);
    if (principal.orgId !== undefined || user === undefined) throw forbidden("this route needs a personal API key; organization keys do not act for a user");
    return user;
  };

  r.get("/regions", (c) =>
    c.json({
      regions: rt.world.regions.map((reg, i) => ({ region_id: reg.id, name: reg.name, default: i === 0, geo_lat: reg.geoLat, geo_long: reg.geoLong })),
    }),
  );

  r.get("/users/me", (c) => c.json(currentUserView(personalUser(c))));

  r.get("/users/me/organizations", (c) => {
    const user = personalUser(c);
    const orgs = [...rt.world.orgs.values()].filter((o) => o.members.has(user.id));
    return c.json({
      organizations: orgs.map((o) => ({ id: o.id, name: o.name, handle: o.id, plan: o.plan, created_at: isoTime(o.createdAt), updated_at: isoTime(o.createdAt) })),
    });
  });

  r.get("/auth", (c) => {
    const principal = c.get("principal");
    return c.json({
      account_id: principal.orgId ?? principal.userId,
      auth_method: principal.orgId !== undefined ? "api_key_org" : "api_key_user",
      auth_data: { key_id: principal.key.id, key_name: principal.key.name },
    });
  });

  return r;
}

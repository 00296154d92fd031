/** The current user's account record (`GET /users/me`), with every field the platform's API description requires. */
import { isoTime } from "../engine/clock.js";
import type { PlanName, UserRec } from "../store/records.js";
import { PLAN_LIMITS } from "../store/world.js";

/** Compute seconds per month a plan allows (our choice): 100 hours on `free`, a whole month otherwise. */
const ACTIVE_SECONDS_LIMIT: Readonly<Record<PlanName, number>> = Object.freeze({ free: 360_000, launch: 2_592_000, scale: 2_592_000 });

/** Largest compute size (CU) a plan allows (our choice). */
const MAX_AUTOSCALING_LIMIT: Readonly<Record<PlanName, number>> = Object.freeze({ free: 2, launch: 16, scale: 16 });

/** `name` is the first word of the account's name and `last_name` the rest (the platform stores both). */
function splitName(full: string): { first: string; last: string } {
  const [first = "", ...rest] = full.trim().split(/\s+/);
  return { first, last: rest.join(" ") };
}

/** User record -> the `GET /users/me` body: identity, plan limits, sign-in accounts and billing account. */
export function currentUserView(user: UserRec): Record<string, unknown> {
  const limits = PLAN_LIMITS[user.plan];
  const { first, last } = splitName(user.name);
  const login = user.email.split("@")[0] ?? user.email;
  return {
    id: user.id,
    email: user.email,
    name: first,
    last_name: last,
    login,
    image: "",
    plan: user.plan,
    projects_limit: limits.projects,
    branches_limit: limits.branchesPerProject,
    max_autoscaling_limit: MAX_AUTOSCALING_LIMIT[user.plan],
    active_seconds_limit: ACTIVE_SECONDS_LIMIT[user.plan],
    compute_seconds_limit: ACTIVE_SECONDS_LIMIT[user.plan],
    auth_accounts: [{ email: user.email, image: "", login, name: user.name, provider: "keycloak" }],
    billing_account: {
      state: "active",
      payment_source: { type: "none" },
      subscription_type: user.plan,
      payment_method: "none",
      quota_reset_at_last: isoTime(user.createdAt),
      email: user.email,
      name: user.name,
      address_city: "",
      address_country: "",
      address_line1: "",
      address_line2: "",
      address_postal_code: "",
      address_state: "",
      orb_portal_url: "",
      tax_id: "",
      tax_id_type: "",
    },
  };
}

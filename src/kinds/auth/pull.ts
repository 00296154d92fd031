/** The auth integration in a pulled config. Pure. */
import type { KindPull } from "../../inspect/kind-pull.js";

/** `auth: true` when the branch has an auth integration (its settings are the platform's). */
export const authPull: KindPull = {
  policy: (records) => (records.auth === null ? {} : { auth: true }),
};

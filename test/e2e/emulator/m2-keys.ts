/** Keys and ids of the M2 access fixture (fixtures/emulator/m2-access.json). */
import { fileURLToPath } from "node:url";

/** The M2 access seed fixture. */
export const M2_SEED = fileURLToPath(new URL("../../../fixtures/emulator/m2-access.json", import.meta.url));

/** Keys of the M2 access seed: alice is an organization admin, bob and carol members, dave owns a personal project shared with erin. */
export const M2 = {
  alice: "svcemu_m2_alice_000000000000000000000000000000",
  bob: "svcemu_m2_bob_00000000000000000000000000000000",
  carol: "svcemu_m2_carol_000000000000000000000000000000",
  dave: "svcemu_m2_dave_0000000000000000000000000000000",
  erin: "svcemu_m2_erin_0000000000000000000000000000000",
} as const;

/** User (member) ids of the M2 access seed. */
export const M2_USERS = {
  alice: "11111111-1111-4111-8111-111111111111",
  bob: "22222222-2222-4222-8222-222222222222",
  carol: "33333333-3333-4333-8333-333333333333",
} as const;

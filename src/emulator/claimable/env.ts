/** The Hono environment the claimable API's routes and middleware share. */
import type { HttpBindings } from "@hono/node-server";

/** Hono environment of the claimable routes: the emulator's request id, when its middleware set one. */
export interface ClaimableEnv {
  Bindings: HttpBindings;
  Variables: {
    rid: string;
    /** The injected fault rules of this answer, as its `X-Emulator-Fault` header names them (for the request log). */
    fault?: string;
  };
}

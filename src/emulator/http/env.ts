/** The Hono environment of the emulator's app: Node bindings and per-request variables. */
import type { HttpBindings } from "@hono/node-server";
import type { Principal } from "../store/records.js";

/** Hono `Env` of every emulator route. */
export interface EmulatorEnv {
  Bindings: HttpBindings;
  Variables: {
    /** The request id (echoed `X-Request-ID` or generated). */
    rid: string;
    /** The authenticated caller (set on `/api/v2/*` and `/__emulator/*` routes that need a key). */
    principal: Principal;
    /** Unknown body and query fields the validation stripped (field paths only, for the verbose log). */
    ignored?: string[];
    /** The injected fault rules of this answer, as its `X-Emulator-Fault` header names them (for the request log). */
    fault?: string;
  };
}

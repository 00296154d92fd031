import { EnvHttpProxyAgent, fetch as undiciFetch } from "undici";
import type { CliIo } from "./io.js";

function pick(env: CliIo["env"], upper: string): string | undefined {
  const value = env[upper] ?? env[upper.toLowerCase()];
  return value === undefined || value === "" ? undefined : value;
}

type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;

/**
 * A `fetch` that honours `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (either case), which Node
 * 20's built-in one ignores (cli.md §3). Reads them from the CLI's environment, never the
 * library's; passed to `createPlatformApi` as its `fetch`. It logs nothing: `--verbose`
 * request lines come from the engine's `read`/`retry` events (terminal/request-log.ts).
 */
export function createProxyAwareFetch(env: CliIo["env"]): typeof globalThis.fetch {
  const httpProxy = pick(env, "HTTP_PROXY");
  const httpsProxy = pick(env, "HTTPS_PROXY") ?? httpProxy;
  const noProxy = pick(env, "NO_PROXY");
  const dispatcher = new EnvHttpProxyAgent({
    ...(httpProxy === undefined ? {} : { httpProxy }),
    ...(httpsProxy === undefined ? {} : { httpsProxy }),
    ...(noProxy === undefined ? {} : { noProxy }),
  });
  const proxied = (input: Parameters<typeof undiciFetch>[0], init?: RequestInit) => undiciFetch(input, { ...(init as UndiciInit | undefined), dispatcher });
  return proxied as unknown as typeof globalThis.fetch;
}

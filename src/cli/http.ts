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
 * library's; passed to `createPlatformApi` as its `fetch`. `onRequest` gets one line per
 * request for `--verbose` (method, path, status, duration, request id; never headers or bodies).
 */
export function createProxyAwareFetch(env: CliIo["env"], options: { onRequest?: (line: string) => void; now?: () => number } = {}): typeof globalThis.fetch {
  const httpProxy = pick(env, "HTTP_PROXY");
  const httpsProxy = pick(env, "HTTPS_PROXY") ?? httpProxy;
  const noProxy = pick(env, "NO_PROXY");
  const dispatcher = new EnvHttpProxyAgent({
    ...(httpProxy === undefined ? {} : { httpProxy }),
    ...(httpsProxy === undefined ? {} : { httpsProxy }),
    ...(noProxy === undefined ? {} : { noProxy }),
  });
  const now = options.now ?? Date.now;
  const proxied = async (input: Parameters<typeof undiciFetch>[0], init?: RequestInit) => {
    const started = now();
    const method = init?.method ?? "GET";
    const path = new URL(typeof input === "string" || input instanceof URL ? input : input.url).pathname;
    const requestId = new Headers(init?.headers).get("x-request-id") ?? "-";
    try {
      const response = await undiciFetch(input, { ...(init as UndiciInit | undefined), dispatcher });
      options.onRequest?.(`http ${method} ${path} ${response.status} ${now() - started}ms rid=${requestId}`);
      return response;
    } catch (err) {
      options.onRequest?.(`http ${method} ${path} no response ${now() - started}ms rid=${requestId}`);
      throw err;
    }
  };
  return proxied as unknown as typeof globalThis.fetch;
}

import type { fetch as UndiciFetch } from "undici";
import type { CliIo } from "./io.js";

function pick(env: CliIo["env"], upper: string): string | undefined {
  const value = env[upper] ?? env[upper.toLowerCase()];
  return value === undefined || value === "" ? undefined : value;
}

type UndiciInit = NonNullable<Parameters<typeof UndiciFetch>[1]>;

/** The proxy variables {@link createProxyAwareFetch} reads, as it reads them: a fetch made from other settings sends differently. */
export function proxySettings(env: CliIo["env"]): string {
  return JSON.stringify(["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"].map((name) => pick(env, name) ?? null));
}

/**
 * A `fetch` that honours `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (either case), which Node
 * 20's built-in one ignores. Reads them from the CLI's environment, never the
 * library's; passed to `createPlatformApi` as its `fetch`. Without a proxy variable it is
 * `undefined`, so the client sends with Node's `http`/`https` (no `fetch` at all), and the undici
 * package (about 100 ms of start-up) is loaded only on the first request through a proxy. It logs nothing: `--verbose` request lines come from the engine's
 * `read`/`retry` events (terminal/request-log.ts).
 */
export function createProxyAwareFetch(env: CliIo["env"]): typeof globalThis.fetch | undefined {
  const httpProxy = pick(env, "HTTP_PROXY");
  const httpsProxy = pick(env, "HTTPS_PROXY") ?? httpProxy;
  if (httpsProxy === undefined) return undefined;
  const noProxy = pick(env, "NO_PROXY");
  let proxiedFetch: Promise<typeof UndiciFetch> | undefined;
  const load = async (): Promise<typeof UndiciFetch> => {
    const { EnvHttpProxyAgent, fetch: undiciFetch } = await import("undici");
    const dispatcher = new EnvHttpProxyAgent({
      ...(httpProxy === undefined ? {} : { httpProxy }),
      httpsProxy,
      ...(noProxy === undefined ? {} : { noProxy }),
    });
    return (input, init) => undiciFetch(input, { ...init, dispatcher });
  };
  const proxied = async (input: Parameters<typeof UndiciFetch>[0], init?: RequestInit) => {
    proxiedFetch ??= load();
    return (await proxiedFetch)(input, init as UndiciInit | undefined);
  };
  return proxied as unknown as typeof globalThis.fetch;
}

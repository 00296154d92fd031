/** Helpers of the emulator's end-to-end tests: real HTTP against an in-process emulator. */
import { fileURLToPath } from "node:url";
import JSZip from "jszip";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator/index.js";

/** The two-account seed fixture. */
export const TWO_ACCOUNTS_SEED = fileURLToPath(new URL("../../../fixtures/emulator/two-accounts.json", import.meta.url));

/** Keys of the two-account seed. */
export const KEYS = {
  alice: "svcemu_alice_key_0000000000000000000000000000000",
  bob: "svcemu_bob_key_00000000000000000000000000000000",
  acme: "svcemu_acme_org_key_000000000000000000000000000",
} as const;

/** A response: status, headers and the parsed JSON body (or null). */
export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small client bound to an emulator and a key. */
export interface TestClient {
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
}

/** Instant timings: operations and builds finish at once. */
export const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0, claimTransferMs: 0 };

/** Starts an emulator on a random port (instant timings unless given). */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ timings: INSTANT, ...options });
}

/** A client for `apiHost` with the given key (`null` = no Authorization header). */
export function client(emu: RunningEmulator, key: string | null = emu.apiKey): TestClient {
  return {
    async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
      const res = await fetch(emu.apiHost + path, {
        method,
        headers: {
          ...(key !== null ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text === "" ? null : JSON.parse(text)) as T };
    },
  };
}

/** A ZIP archive with the given files (name -> content). */
export async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content, { createFolders: false });
  return zip.generateAsync({ type: "uint8array" });
}

/** Deploys a function with multipart parts; returns the reply. */
export async function deploy(emu: RunningEmulator, path: string, parts: { zip?: Uint8Array; runtime?: string; environment?: Record<string, string> }, key = emu.apiKey): Promise<Reply> {
  const form = new FormData();
  if (parts.zip !== undefined) form.append("zip", new Blob([parts.zip], { type: "application/zip" }), "bundle.zip");
  if (parts.runtime !== undefined) form.append("runtime", parts.runtime);
  if (parts.environment !== undefined) form.append("environment", JSON.stringify(parts.environment));
  const res = await fetch(`${emu.apiHost}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === "" ? null : JSON.parse(text)) as Record<string, unknown> };
}

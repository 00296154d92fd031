/** Finding the claim URL in an env file for `svc db claim`, and the database id and origin it names. */
import { parse } from "dotenv";
import { ErrorCode, PlatformError } from "../../errors/index.js";
import { readEnvFile } from "../../instant/env-file.js";

/** The claim URL found in the env file, its variable and the database id it names. */
export interface FoundClaimUrl {
  readonly key: string;
  readonly url: string;
  readonly id: string;
}

const SUFFIX = "POSTGRES_CLAIM_URL";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads the claim URL: with a prefix exactly `<prefix>POSTGRES_CLAIM_URL`; without one
 * `PUBLIC_POSTGRES_CLAIM_URL`, else the only key ending in `POSTGRES_CLAIM_URL`.
 */
export async function findClaimUrl(file: string, display: string, prefix: string | undefined): Promise<FoundClaimUrl> {
  const state = await readEnvFile(file, display);
  const values = state.text === null ? {} : parse(state.text.replace(/^\uFEFF/, ""));
  let key: string | undefined;
  if (prefix !== undefined) key = `${prefix}${SUFFIX}` in values ? `${prefix}${SUFFIX}` : undefined;
  else if (`PUBLIC_${SUFFIX}` in values) key = `PUBLIC_${SUFFIX}`;
  else {
    const candidates = Object.keys(values).filter((name) => name.endsWith(SUFFIX));
    if (candidates.length > 1) {
      throw new PlatformError(ErrorCode.INSTANT_CLAIM_URL_NOT_FOUND, `${display} has several claim URLs: ${candidates.join(", ")}`, {
        details: { file: display, keys: candidates, hint: "use -p to choose one, e.g. -p VITE_" },
      });
    }
    key = candidates[0];
  }
  const url = key === undefined ? undefined : values[key];
  if (key === undefined || url === undefined || url === "") {
    const name = prefix === undefined ? `PUBLIC_${SUFFIX}` : `${prefix}${SUFFIX}`;
    throw new PlatformError(ErrorCode.INSTANT_CLAIM_URL_NOT_FOUND, `no ${name} in ${display}${state.text === null ? " (the file does not exist)" : ""}`, {
      details: { file: display, hint: "run svc db first" },
    });
  }
  let id: string | undefined;
  try {
    id = new URL(url).pathname.split("/").filter((s) => s !== "").at(-1);
  } catch {
    id = undefined;
  }
  if (id === undefined || !UUID.test(id)) {
    throw new PlatformError(ErrorCode.INSTANT_CLAIM_URL_NOT_FOUND, `${key} in ${display} is not a claim URL ending in a database id`, {
      details: { file: display, key, hint: "remove the three lines svc db wrote and run svc db again" },
    });
  }
  return { key, url, id: id.toLowerCase() };
}

/**
 * Helpers of the secret-scan test: the planted values, a collector of everything the library or
 * the CLI produced, and the scan that names which output leaked which planted value.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "dotenv";

/** The fixture project (policy, functions, `.env.scan`). */
export const SCAN_PROJECT = join(import.meta.dirname, "..", "..", "fixtures", "secret-scan", "project");
/** The emulator's bootstrap key in this test: planted, must never be printed. */
export const SCAN_API_KEY = "svcemu_scan_bootstrap_planted_key_0001";
/** A key the platform rejects: the 401 error path must not echo it either. */
export const WRONG_API_KEY = "svc_wrong_planted_key_zz99113377";
/** A value the test rotates `API_TOKEN` to, to plan and apply an env change. */
export const ROTATED_TOKEN = "planted-rotated-token-b81d5e0c";

/** The planted env values of `.env.scan`, by name. */
export function plantedEnv(): Record<string, string> {
  return parse(readFileSync(join(SCAN_PROJECT, ".env.scan"), "utf8"));
}

/** Every planted value: env values, both API keys and the rotated token. */
export function plantedValues(): string[] {
  return [...Object.values(plantedEnv()), SCAN_API_KEY, WRONG_API_KEY, ROTATED_TOKEN];
}

/** Everything a step produced, labelled so a leak names its source. */
export class OutputLog {
  readonly entries: { label: string; text: string }[] = [];

  /** Records a string, or any value as JSON. */
  add(label: string, value: unknown): void {
    this.entries.push({ label, text: typeof value === "string" ? value : JSON.stringify(value) ?? String(value) });
  }

  /** Records an error: message, stack, JSON form (details included) and causes. */
  addError(label: string, err: unknown): void {
    let current: unknown = err;
    let depth = 0;
    while (current !== undefined && current !== null && depth < 5) {
      if (current instanceof Error) {
        this.add(`${label} (message)`, current.message);
        this.add(`${label} (stack)`, current.stack ?? "");
        this.add(`${label} (json)`, { ...current, name: current.name, message: current.message });
        current = current.cause;
      } else {
        this.add(`${label} (thrown)`, current);
        current = undefined;
      }
      depth += 1;
    }
  }

  /** `"<label>: <value>"` for each planted value found in an entry; empty when clean. */
  leaks(values: readonly string[]): string[] {
    return this.entries.flatMap(({ label, text }) => values.filter((v) => text.includes(v)).map((v) => `${label}: ${v}`));
  }
}

/**
 * Hostname rules for custom domains, shared by the engine and the emulator:
 * normalise (trim, lowercase, drop one trailing dot), then check length and label shape.
 */
import * as z from "zod";

/** Outcome of checking a hostname: the normalised form, or what is wrong with it. */
export type HostnameCheck = { valid: true; hostname: string } | { valid: false; message: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Trims, lowercases and removes one trailing `.`: the form hostnames are compared in. */
export function normalizeHostname(input: string): string {
  const lowered = input.trim().toLowerCase();
  return lowered.endsWith(".") ? lowered.slice(0, -1) : lowered;
}

/**
 * Checks a custom-domain hostname: 3–253 characters after normalisation, two or more labels of
 * `[a-z0-9-]` (1–63 characters, no leading or trailing `-`), a last label of 2–63 letters or
 * punycode `xn--…`. Non-ASCII input and wildcards are rejected with a hint.
 */
export function checkHostname(input: string): HostnameCheck {
  const hostname = normalizeHostname(input);
  // Checked on the input, not the lowercased form: "\u212A" (Kelvin sign) lowercases to "k".
  if (/[^\x20-\x7e]/.test(input.trim())) {
    return invalid(`"${input}" contains non-ASCII characters; write the punycode form (xn--…)`);
  }
  if (hostname.includes("*")) return invalid(`"${input}" is a wildcard; wildcard domains are not supported`);
  if (hostname.length < 3 || hostname.length > 253) {
    return invalid(`"${input}" must be 3 to 253 characters long`);
  }
  const labels = hostname.split(".");
  if (labels.length < 2) return invalid(`"${input}" needs at least two labels, e.g. "app.example.com"`);
  for (const label of labels) {
    if (!LABEL.test(label)) {
      return invalid(
        `"${input}" has an invalid label "${label}": use 1 to 63 characters from a–z, 0–9 and "-", not starting or ending with "-"`,
      );
    }
  }
  const top = labels[labels.length - 1] ?? "";
  if (!TOP_LABEL.test(top)) {
    return invalid(`"${input}" ends with "${top}": the last label must be 2 to 63 letters or punycode (xn--…)`);
  }
  return { valid: true, hostname };
}

function invalid(message: string): HostnameCheck {
  return { valid: false, message };
}

/** A zod schema for a custom-domain hostname; outputs the normalised form. */
export const hostnameSchema = z.string().transform((value, ctx) => {
  const result = checkHostname(value);
  if (result.valid) return result.hostname;
  ctx.addIssue({ code: "custom", message: result.message });
  return z.NEVER;
});

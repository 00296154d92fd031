import { describe, expect, it } from "vitest";
import { findLiteralSecrets } from "../../../src/cli/literal-secrets.js";

const policy = (env: Record<string, string>) => ({ functions: { api: { name: "API", source: "./fn", env } } });

describe("secret-named variables written in the policy's files", () => {
  it.each([
    ["a key in a double-quoted literal", "STRIPE_KEY", "sk_live_abcdef123", 'STRIPE_KEY: "sk_live_abcdef123"', true],
    ["a token in a single-quoted literal", "GITHUB_TOKEN", "ghp_0123456789", "GITHUB_TOKEN: 'ghp_0123456789'", true],
    ["a password in a template literal", "DB_PASSWORD", "hunter2hunter2", "DB_PASSWORD: `hunter2hunter2`", true],
    ["an API key spelled APIKEY", "APIKEY", "0123456789abcdef", 'APIKEY: "0123456789abcdef"', true],
    ["a value read from the environment", "STRIPE_KEY", "sk_live_abcdef123", "STRIPE_KEY: process.env.STRIPE_KEY", false],
    ["a variable not named like a secret", "LOG_LEVEL", "verbose-debug", 'LOG_LEVEL: "verbose-debug"', false],
    ["a public key", "PUBLIC_KEY", "pk_live_abcdef123", 'PUBLIC_KEY: "pk_live_abcdef123"', false],
    ["a value shorter than 8 characters", "API_KEY", "dev", 'API_KEY: "dev"', false],
    ["a name merely containing KEY", "MONKEY_COUNT", "1234567890", 'MONKEY_COUNT: "1234567890"', false],
  ])("%s: reported %s", (_label, name, value, text, reported) => {
    const found = findLiteralSecrets(policy({ [name]: value }), [{ file: "/app/svc.ts", text }]);
    expect(found).toEqual(reported ? [{ path: `functions.api.env.${name}`, name, file: "/app/svc.ts" }] : []);
  });

  it("names the file the value is written in", () => {
    const sources = [
      { file: "/app/svc.ts", text: 'import { token } from "./keys.mjs";' },
      { file: "/app/keys.mjs", text: 'export const token = "tok-9f8e7d6c5b4a";' },
    ];
    expect(findLiteralSecrets(policy({ API_TOKEN: "tok-9f8e7d6c5b4a" }), sources)).toEqual([{ path: "functions.api.env.API_TOKEN", name: "API_TOKEN", file: "/app/keys.mjs" }]);
  });
});

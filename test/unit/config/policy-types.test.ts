import { describe, expect, it } from "vitest";
import { defineConfig, type Duration, type PolicyConfig } from "../../../src/v1.js";

// Each `@ts-expect-error` below is checked by `tsc -p tsconfig.test.json`: if the authoring
// types stopped rejecting the combination, the type check would fail on the unused directive.
describe("authoring types", () => {
  it("accept what the spec allows", () => {
    const durations: Duration[] = ["7d", "1w", 604_800, "90s"];
    const policy: PolicyConfig = {
      auth: true,
      dataApi: { authProvider: "external", jwksUrl: "https://id.example.com/jwks" },
      functions: {
        api: { name: "API", source: "./api", bundler: "none", sourcemap: false },
        web: { name: "Web", source: "./web", sourcemap: true },
        custom: { name: "Custom", source: "./custom", bundler: async (fn) => ({ "index.mjs": `export const slug = ${JSON.stringify(fn.slug)};` }) },
      },
      triggers: { t: { type: "schedule", function: "api", cron: "0 * * * *" } },
      branch: (t) => (t.isDefault ? { ttl: false } : { ttl: durations[0], postgres: { computeSettings: { autoscalingLimitMinCu: 0.25, suspendTimeout: false } } }),
    };
    expect(defineConfig(policy).functions?.web?.sourcemap).toBe(true);
  });

  it("reject the forbidden combinations TypeScript can express", () => {
    const rejected: PolicyConfig[] = [
      // @ts-expect-error jwksUrl needs authProvider "external"
      { dataApi: { jwksUrl: "https://id.example.com/jwks" } },
      // @ts-expect-error a disabled Data API takes no other field
      { dataApi: { enabled: false, database: "app" } },
      // @ts-expect-error source maps are for the esbuild bundler only
      { functions: { api: { name: "API", source: "./api", bundler: "none", sourcemap: true } } },
      // @ts-expect-error 3 CU is offered, 3.5 CU is not
      { branch: () => ({ postgres: { computeSettings: { autoscalingLimitMinCu: 3.5 } } }) },
      // @ts-expect-error schedule triggers have no bucket
      { triggers: { t: { type: "schedule", function: "api", cron: "* * * * *", bucket: "b" } } },
      // @ts-expect-error env values must be strings
      { functions: { api: { name: "API", source: "./api", env: { PORT: 3000 } } } },
      // @ts-expect-error the only runtime is nodejs24
      { functions: { api: { name: "API", source: "./api", runtime: "nodejs20" } } },
    ];
    expect(rejected).toHaveLength(7);
  });
});

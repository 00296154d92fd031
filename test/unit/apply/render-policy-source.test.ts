import { describe, expect, it } from "vitest";
import { renderPolicySource } from "../../../src/kinds/list.js";

const pulled = {
  project: { id: "proj-1", name: "demo" },
  branch: { id: "br-main-1", name: "main", isDefault: true },
  config: {
    auth: true,
    dataApi: { settings: { dbSchemas: ["api", "public"] }, database: "app" },
    branch: () => ({ parent: "root", protected: true, ttl: "7d", postgres: { computeSettings: { suspendTimeout: false } } }),
  },
  preview: { buckets: [{ name: "uploads", access: "private" }], functions: [{ slug: "hello", name: "Hello \"there\"" }] },
};

describe("renderPolicySource", () => {
  it("renders auth, dataApi and a branch closure for the kind of branch it was pulled from with 2-space indentation, then comments for unmanaged items", () => {
    expect(renderPolicySource(pulled)).toBe(
      [
        '// svc.ts pulled from project "demo" (proj-1), branch "main" (br-main-1).',
        'import { defineConfig } from "svc-config/v1";',
        "",
        "export default defineConfig({",
        "  auth: true,",
        "  dataApi: {",
        "    settings: {",
        "      dbSchemas: [",
        '        "api",',
        '        "public",',
        "      ],",
        "    },",
        '    database: "app",',
        "  },",
        "  branch: (t) => (t.isDefault ? {",
        '    parent: "root",',
        "    protected: true,",
        '    ttl: "7d",',
        "    postgres: {",
        "      computeSettings: {",
        "        suspendTimeout: false,",
        "      },",
        "    },",
        "  } : {}),",
        "});",
        "",
        "// Buckets on this branch (declare them under `buckets` to manage them):",
        '//   "uploads": { access: "private" }',
        "",
        "// Functions on this branch (declare them under `functions` with a `source` to manage them):",
        '//   hello: { name: "Hello \\"there\\"" }',
        "",
      ].join("\n"),
    );
  });

  it("writes live names with line breaks, U+2028 and bidi characters as escapes, so no name can end a comment or hide code", () => {
    const hostile = "x\u2028process.exit(1)//\n\u202e";
    const source = renderPolicySource({ ...pulled, preview: { buckets: [], functions: [{ slug: "api", name: hostile }] }, project: { id: "proj-1", name: hostile } });

    expect(source).toContain('//   api: { name: "x\\u2028process.exit(1)//\\n\\u202e" }');
    expect(source).toContain('// svc.ts pulled from project "x\\u2028process.exit(1)//\\n\\u202e" (proj-1)');
    expect(source).not.toMatch(/[\u2028\u202e]/);
    expect(source.split("\n").filter((line) => line.includes("process.exit")).every((line) => line.startsWith("//"))).toBe(true);
  });

  it("lists the branch's triggers as `triggers` entries and its hostnames under their functions, each a literal to declare", () => {
    const triggers = [
      { name: "nightly", type: "schedule" as const, function: "hello", functionPath: "/cron", cron: "0 3 * * *" },
      { name: "on-upload", type: "storage_object_created" as const, function: "hello", bucket: "uploads", prefix: "incoming/" },
    ];
    const customDomains = [
      { domain: "a.example.com", function: "hello" },
      { domain: "b.example.com", function: "hello" },
    ];
    const text = renderPolicySource({ ...pulled, preview: { ...pulled.preview, triggers, customDomains } });
    const section = (heading: string) => {
      const lines = text.split("\n");
      const start = lines.findIndex((l) => l.startsWith(`// ${heading}`));
      const end = lines.indexOf("", start);
      return lines.slice(start + 1, end === -1 ? undefined : end).map((l) => l.replace(/^\/\/ {3}/, ""));
    };
    const evaluate = (body: string[]) => new Function(`return {${body.join("\n")}};`)() as unknown;
    expect(section("Triggers on this branch")).toEqual([
      'nightly: { type: "schedule", function: "hello", functionPath: "/cron", cron: "0 3 * * *" },',
      '"on-upload": { type: "storage_object_created", function: "hello", bucket: "uploads", prefix: "incoming/" },',
    ]);
    expect(evaluate(section("Triggers on this branch"))).toEqual(Object.fromEntries(triggers.map(({ name, ...def }) => [name, def])));
    expect(evaluate(section("Custom domains on this branch"))).toEqual({ hello: { customDomains: ["a.example.com", "b.example.com"] } });
  });

  it("gives a pulled preview's tuning to other previews, never to the default branch", () => {
    const preview = { ...pulled, branch: { id: "br-pr-2", name: "pr-2", isDefault: false }, config: { branch: () => ({ ttl: "7d" }) } };
    expect(renderPolicySource(preview)).toContain('  branch: (t) => (t.isDefault ? {} : {\n    ttl: "7d",\n  }),');
  });

  it("renders the durations of the branch and compute descriptors as text, other numbers as they are", () => {
    const seconds = {
      ...pulled,
      config: {
        dataApi: { settings: { jwtCacheMaxLifetime: 3600 } },
        branch: () => ({ ttl: 604_800, postgres: { computeSettings: { autoscalingLimitMaxCu: 2, suspendTimeout: 300 } } }),
      },
    };
    const text = renderPolicySource(seconds);
    expect(text).toContain("      jwtCacheMaxLifetime: 3600,\n");
    expect(text).toContain('    ttl: "1w",\n');
    expect(text).toContain('        autoscalingLimitMaxCu: 2,\n        suspendTimeout: "5m",\n');
  });

  it("is deterministic and omits what the pulled config omits", () => {
    const bare = { ...pulled, config: { branch: () => ({ protected: false }) }, preview: undefined };
    const text = renderPolicySource(bare);
    expect(text).toBe(renderPolicySource(bare));
    expect(text).not.toContain("auth");
    expect(text).not.toContain("//   ");
  });
});

import { describe, expect, it } from "vitest";
import { renderBanner, renderPrefixed, renderRequestLine } from "../../../../src/cli/dev/dev-view.js";

describe("what svc dev prints", () => {
  it("logs one line per request: [slug] METHOD path status ms", () => {
    expect(renderRequestLine("api", { method: "GET", path: "/a?b=1", status: 200, ms: 3.25 })).toBe("[api] GET /a?b=1 200 3.3ms");
    expect(renderRequestLine("api", { method: "POST", path: "/", status: 0, ms: 1234.4 })).toBe("[api] POST / - 1234ms");
  });

  it("escapes a hostile path so it cannot forge or hide a line", () => {
    const line = renderRequestLine("api", { method: "GET", path: "/x\n[api] GET /admin 200 1ms\u202e", status: 404, ms: 1 });
    expect(line).not.toContain("\n");
    expect(line).toContain("\\u000a[api] GET /admin 200 1ms\\u202e");
  });

  it("prefixes every line of a stack with the slug", () => {
    expect(renderPrefixed("hello", "Error: x\n    at f (/a.ts:1:2)")).toEqual(["[hello] Error: x", "[hello]     at f (/a.ts:1:2)"]);
  });

  it("shows names, never values, and says where the variables come from", () => {
    const banner = renderBanner({
      functions: [{ slug: "api", url: "http://127.0.0.1:8787", serving: true, envNames: ["DATABASE_URL", "GREETING"] }, { slug: "broken", url: "http://127.0.0.1:8788", serving: false, envNames: [] }],
      envSource: "No platform variables (--no-branch-env).",
      notes: ["svc.ts enables auth but branch main has none"],
      nodeVersion: "20.19.0",
    });
    expect(banner).toEqual(
      [
        "svc dev: 2 functions on Node.js 20.19.0 (the platform runs Node.js 24 on linux/arm64)",
        "  api     http://127.0.0.1:8787",
        "          env: DATABASE_URL, GREETING",
        "  broken  http://127.0.0.1:8788  (not serving yet: see the error above; fix it and save)",
        "          env: (none)",
        "No platform variables (--no-branch-env).",
        "note: svc.ts enables auth but branch main has none",
        "Watching for changes; Ctrl-C stops.",
      ],
    );
  });
});

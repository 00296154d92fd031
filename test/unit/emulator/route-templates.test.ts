/** Route templates matched by segment give the answer of one regex of all of them. */
import { describe, expect, it } from "vitest";
import { compileRouteTemplates } from "../../../src/emulator/http/route-templates.js";
import { M2_ROUTES, SEED_ENDPOINT_INDEX, toHonoPath } from "../../../src/emulator/route-index.js";

/** The regex the server tested before: each `:param` one segment of anything but `/`, other segments as written. */
function regexOf(templates: readonly string[]): RegExp {
  const bodies = templates.map((t) =>
    t
      .split("/")
      .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.+?^${}()|[\]\\*]/g, "\\$&")))
      .join("/"),
  );
  return new RegExp(`^(?:${bodies.join("|")})/?$`);
}

const API_TEMPLATES = [...new Set([...SEED_ENDPOINT_INDEX, ...M2_ROUTES].map((entry) => `/api/v2${toHonoPath(entry.split(" ")[1] ?? "/")}`))];

describe("route templates", () => {
  const templates = ["/", "/api/v2/projects", "/api/v2/projects/shared", "/api/v2/projects/:project_id", "/api/v2/projects/:project_id/branches/:branch_id", "/api/v2/projects/:project_id/branches/count", "/s3/:bucket/*", "/a.b/:x{.+}"];
  const set = compileRouteTemplates(templates);

  it.each([
    ["/", true],
    ["//", true],
    ["", false],
    ["/api/v2/projects", true],
    ["/api/v2/projects/", true],
    ["/api/v2/projects//", false],
    ["/api/v2/projects/shared", true],
    ["/api/v2/projects/p-1", true],
    ["/api/v2/projects/p-1/", true],
    ["/api/v2/projects//branches/b", false],
    ["/api/v2/projects/p/branches/count", true],
    ["/api/v2/projects/p/branches/br-x", true],
    ["/api/v2/projects/p/branches/br-x/extra", false],
    ["/api/v2/Projects", false],
    ["api/v2/projects", false],
    ["/s3/bucket/*", true],
    ["/s3/bucket/key", false],
    ["/a.b/anything", true],
    ["/aXb/anything", false],
    ["/api/v2/projects/p\nq", true],
  ])("%j matches: %s", (path, expected) => {
    expect(set.matches(path)).toBe(expected);
    expect(regexOf(templates).test(path)).toBe(expected);
  });

  it("answers as the regex of the emulator's API templates does for paths built from them", () => {
    const all = compileRouteTemplates(API_TEMPLATES);
    const regex = regexOf(API_TEMPLATES);
    const fills = ["x", "", "shared", "count", "a/b", "p-1/"];
    const paths = new Set<string>();
    for (const template of API_TEMPLATES) {
      for (const fill of fills) {
        const path = template.replace(/:[^/]+/g, fill);
        for (const variant of [path, `${path}/`, `${path}//`, path.slice(0, -1), `${path}/extra`]) paths.add(variant);
      }
    }
    expect(paths.size).toBeGreaterThan(1_000);
    const differing = [...paths].filter((p) => all.matches(p) !== regex.test(p));
    expect(differing).toEqual([]);
  });
});

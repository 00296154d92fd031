import { describe, expect, it } from "vitest";
import { ReplicaHeaders } from "../../../src/emulator/replica-headers.js";

/** The same calls on a web `Headers` and a `ReplicaHeaders`: every read must agree. */
function both(init: Record<string, string> | [string, string][], calls: (h: Headers) => void): [Headers, ReplicaHeaders] {
  const web = new Headers(init);
  const replica = new ReplicaHeaders(init);
  calls(web);
  calls(replica);
  return [web, replica];
}

function readAll(h: Headers): unknown {
  const each: [string, string][] = [];
  h.forEach((value, name) => {
    each.push([name, value]);
  });
  return { entries: [...h.entries()], iterated: [...h], keys: [...h.keys()], values: [...h.values()], each, cookies: h.getSetCookie() };
}

describe("replica headers", () => {
  it.each([
    ["a sender's lower-case record", { authorization: "Bearer k", "x-request-id": "r1", accept: "application/json" }, (h: Headers) => h.set("content-length", "12")],
    ["names in any case, set, appended and deleted", [["Content-Type", "application/json"], ["X-Request-ID", "r2"]] as [string, string][], (h: Headers) => {
      h.set("x-request-id", "r3");
      h.append("Vary", "accept");
      h.append("vary", "origin");
      h.delete("CONTENT-TYPE");
    }],
    ["set-cookie kept apart", [], (h: Headers) => {
      h.append("Set-Cookie", "a=1");
      h.append("set-cookie", "b=2");
      h.set("Location", "/x");
    }],
  ] as const)("read as a web Headers reads them: %s", (_name, init, calls) => {
    const [web, replica] = both(init as Record<string, string> | [string, string][], calls);
    expect(readAll(replica)).toEqual(readAll(web));
    for (const name of ["authorization", "Content-Type", "x-request-id", "vary", "set-cookie", "location", "absent"]) {
      expect([name, replica.get(name), replica.has(name)]).toEqual([name, web.get(name), web.has(name)]);
    }
  });

  it("copies another answer's headers, and serves as a Response's headers", async () => {
    const source = new Headers({ "content-type": "application/json", "x-request-id": "r4" });
    const copy = new ReplicaHeaders(source);
    copy.set("x-request-id", "r5");
    expect(source.get("x-request-id")).toBe("r4");
    const response = new Response("{}", { status: 201, headers: copy });
    expect([response.status, response.headers.get("content-type"), response.headers.get("x-request-id"), await response.text()]).toEqual([201, "application/json", "r5", "{}"]);
  });
});

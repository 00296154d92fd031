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
  // Hostile rows: what a web Headers refuses the replica's headers refuse (a TypeError, so a
  // verification cannot pass a request or an answer the platform's client would never send), and
  // what it normalises reads the same.
  it.each([
    ["a value with CR LF", (h: Headers) => h.set("x-request-id", "r1\r\nset-cookie: s=1")],
    ["a value with a bare LF", (h: Headers) => h.append("x-request-id", "r1\nx")],
    ["a value with NUL", (h: Headers) => h.set("authorization", "Bearer k\u0000")],
    ["a value with a character past U+00FF", (h: Headers) => h.set("location", "/f/\u0430")],
    ["a name with a colon", (h: Headers) => h.set("x-a:b", "1")],
    ["a name with a space", (h: Headers) => h.append("x a", "1")],
    ["an empty name", (h: Headers) => h.set("", "1")],
    ["a name with a non-ASCII letter", (h: Headers) => h.set("x-\u0430", "1")],
    ["a read by an invalid name", (h: Headers) => h.get("x y")],
    ["a has by an invalid name", (h: Headers) => h.has("x\ny")],
    ["a delete by an invalid name", (h: Headers) => h.delete("x:y")],
  ] as const)("refused as a web Headers refuses it: %s", (_name, call) => {
    expect(() => call(new Headers())).toThrow(TypeError);
    expect(() => call(new ReplicaHeaders())).toThrow(TypeError);
  });

  it.each([
    ["a record with a CR LF value", { "x-request-id": "r1\r\nx: y" }],
    ["a record with an invalid name", { "x y": "1" }],
    ["pairs with a NUL value", [["x-request-id", "r\u0000"]] as [string, string][]],
  ] as const)("refused from its init as a web Headers refuses it: %s", (_name, init) => {
    expect(() => new Headers(init as Record<string, string>)).toThrow(TypeError);
    expect(() => new ReplicaHeaders(init as Record<string, string>)).toThrow(TypeError);
  });

  it("reads whitespace-padded values, a record naming one header twice and a set-cookie in any case as a web Headers does", () => {
    const init = { "X-Request-ID": " r1\t", "content-disposition": "caf\u00e9", "x-request-id": "r2 ", "SET-COOKIE": " a=1 " };
    const [web, replica] = both(init, (h) => {
      h.append("Vary", "\taccept ");
      h.set("location", "  /x  ");
      h.append("Set-Cookie", "b=2 ");
    });
    expect(readAll(replica)).toEqual(readAll(web));
    for (const name of ["x-request-id", "content-disposition", "vary", "location", "set-cookie"]) expect([name, replica.get(name)]).toEqual([name, web.get(name)]);
  });

  it("reads the names the client and the emulator send in any spelling as a web Headers does, and still refuses a name that is not a token", () => {
    const names = ["accept", "authorization", "content-length", "content-type", "transfer-encoding", "user-agent", "x-request-id", "allow", "connection", "retry-after"];
    const spellings = names.flatMap((name) => [name, name.toUpperCase(), name.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase()), name === "x-request-id" ? "X-Request-ID" : name]);
    const [web, replica] = both([], (h) => {
      for (const [i, name] of spellings.entries()) h.append(name, `v${i}`);
      h.set("Content-Type", "application/json");
      h.delete("ACCEPT");
    });
    expect(readAll(replica)).toEqual(readAll(web));
    for (const name of spellings) expect([name, replica.get(name), replica.has(name)]).toEqual([name, web.get(name), web.has(name)]);
    for (const bad of ["x request id", "content-type:", "Accept\n", ""]) {
      expect(() => new ReplicaHeaders().set(bad, "v"), bad).toThrow(TypeError);
      expect(() => new Headers().set(bad, "v"), bad).toThrow(TypeError);
    }
  });
});

import { describe, expect, it } from "vitest";
import { describeExports, NoRequestHandlerError, resolveHandlers } from "../../../src/runtime/handler-contract.js";

const request = new Request("http://fn.test/hello");

describe("the handler contract", () => {
  it("calls default.fetch with the default export as `this` (a Hono-style app)", async () => {
    const app = {
      greeting: "hi",
      fetch(this: { greeting: string }, req: Request) {
        return new Response(`${this.greeting} ${new URL(req.url).pathname}`);
      },
    };
    const handlers = resolveHandlers({ default: app }, "/app/index.mjs");
    expect(await ((await handlers.fetch(request)) as Response).text()).toBe("hi /hello");
  });

  it("prefers default.fetch over the default being callable, and takes a plain default function", async () => {
    const fn = Object.assign(() => new Response("called"), { fetch: () => new Response("fetched") });
    expect(await ((await resolveHandlers({ default: fn }, "x").fetch(request)) as Response).text()).toBe("fetched");
    expect(await ((await resolveHandlers({ default: () => new Response("plain") }, "x").fetch(request)) as Response).text()).toBe("plain");
  });

  it.each([
    [{}, "nothing"],
    [{ default: { handler: 1 } }, "default (object without fetch)"],
    [{ GET: () => undefined, fetch: () => undefined }, "GET (function), fetch (function)"],
    [{ default: "text", config: null }, "config (null), default (string)"],
  ])("refuses a module exporting %o, naming the file and its exports", (namespace, seen) => {
    let caught: unknown;
    try {
      resolveHandlers(namespace, "/srv/fn/index.mjs");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(NoRequestHandlerError);
    expect((caught as Error).message).toContain(`no request handler found in /srv/fn/index.mjs: it exports ${seen}`);
    expect(describeExports(namespace)).toBe(seen);
  });

  it("takes a named upgrade export first, else default.upgrade, else none", () => {
    const named = () => "named";
    const app = { fetch: () => new Response(""), upgrade: () => "on default" };
    expect(resolveHandlers({ default: app, upgrade: named }, "x").upgrade).toBe(named);
    expect(resolveHandlers({ default: app }, "x").upgrade).toBeTypeOf("function");
    expect(resolveHandlers({ default: () => new Response("") }, "x").upgrade).toBeUndefined();
  });

  it("treats a throwing getter as no handler rather than crashing", () => {
    const hostile = Object.defineProperty({}, "fetch", { get: () => { throw new Error("boom"); }, enumerable: true });
    expect(() => resolveHandlers({ default: hostile }, "x")).toThrow(NoRequestHandlerError);
  });
});

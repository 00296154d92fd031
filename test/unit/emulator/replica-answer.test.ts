import { describe, expect, it } from "vitest";
import { EmulatorCore } from "../../../src/emulator/control.js";
import { resolveEmulatorOptions } from "../../../src/emulator/options.js";
import { InMemoryAnswer, answerInMemory } from "../../../src/emulator/replica-answer.js";
import { inMemoryRequest } from "../../../src/emulator/replica-request.js";
import { RequestLog } from "../../../src/emulator/request-log.js";
import { createEmulatorApp } from "../../../src/emulator/server.js";

const KEY = "svc_replica_answer_key_0000000000000001";
const seed = {
  version: 1 as const,
  users: [{ email: "owner@example.test", plan: "scale" as const, api_keys: [{ name: "k", key: KEY, admin: true }] }],
  projects: [{ owner: "owner@example.test", name: "shop", branches: [{ name: "main", default: true }] }],
};

/** One world answered by two apps: with in-memory answers (the replica's) and with `Response`s (a socket's). */
function twoApps() {
  const core = new EmulatorCore(resolveEmulatorOptions({ seed, apiKey: KEY, log: "off" }));
  const parts = { rt: core, faults: core.faultEngine, log: new RequestLog(), mountAdmin: () => undefined, commit: () => core.commit() };
  const projectId = [...core.world.projects.keys()][0] ?? "";
  const branchId = [...(core.world.projects.get(projectId)?.branches.keys() ?? [])][0] ?? "";
  return { inMemory: createEmulatorApp({ ...parts, answers: answerInMemory }), responses: createEmulatorApp(parts), base: `http://replica.invalid/api/v2/projects/${projectId}/branches/${branchId}` };
}

interface Sent {
  method: string;
  path: string;
  type?: string;
  body?: string;
  key?: string;
}

/** Status, headers and body of an answer, whichever container it came in. */
async function read(answer: Response | InMemoryAnswer): Promise<{ status: number; headers: [string, string][]; text: string }> {
  const text = answer instanceof InMemoryAnswer ? (answer.text ?? "") : await answer.text();
  return { status: answer.status, headers: [...answer.headers], text };
}

function requestFor(base: string, sent: Sent): Request {
  const headers = new Headers({ authorization: `Bearer ${sent.key ?? KEY}`, "x-request-id": "rid-answer-test" });
  if (sent.type !== undefined) headers.set("content-type", sent.type);
  return inMemoryRequest(sent.method, `${base}${sent.path}`, headers, sent.body ?? null);
}

describe("the replica's in-memory answers", () => {
  // A refusal of the API's middleware (401, 415, 413) is rebuilt as a Response by Hono, which read
  // the context's answer before the error; it carries the same status, headers and body.
  it.each<[string, Sent, number, "in memory" | "rebuilt"]>([
    ["a listing", { method: "GET", path: "/buckets" }, 200, "in memory"],
    ["a route that does not exist", { method: "GET", path: "/no-such-route" }, 404, "in memory"],
    ["a method the route does not allow", { method: "PUT", path: "/buckets" }, 405, "in memory"],
    ["an invalid body", { method: "POST", path: "/buckets", type: "application/json", body: '{"name":1}' }, 400, "in memory"],
    ["a delete of something absent", { method: "DELETE", path: "/buckets/absent" }, 404, "in memory"],
    ["an unknown key", { method: "GET", path: "/buckets", key: "svc_someone_else_000000000000000000001" }, 401, "rebuilt"],
    ["a JSON body sent as text", { method: "POST", path: "/buckets", type: "text/plain", body: "{}" }, 415, "rebuilt"],
    ["a body over the limit", { method: "POST", path: "/buckets", type: "application/json", body: `{"pad":"${"x".repeat(1024 * 1024)}"}` }, 413, "rebuilt"],
  ])("answer %s with the status, headers and body a Response carries", async (_name, sent, status, container) => {
    const { inMemory, responses, base } = twoApps();
    const memory = await inMemory.fetch(requestFor(base, sent));
    expect(memory instanceof InMemoryAnswer).toBe(container === "in memory");
    const expected = await read(await responses.fetch(requestFor(base, sent)));
    expect(expected.status).toBe(status);
    expect(await read(memory)).toEqual(expected);
  });

  it("answer a creation and a deletion as a Response does: 201 with the record, then 204 with no body", async () => {
    const { inMemory, responses, base } = twoApps();
    const create = (name: string): Sent => ({ method: "POST", path: "/buckets", type: "application/json", body: JSON.stringify({ name, access_level: "private" }) });
    const created = await read(await inMemory.fetch(requestFor(base, create("same"))));
    const expected = await read(await responses.fetch(requestFor(base, create("other"))));
    expect(created.status).toBe(201);
    expect(created.headers).toEqual(expected.headers);
    const shape = (text: string) => Object.keys((JSON.parse(text) as { bucket: object }).bucket).sort();
    expect(shape(created.text)).toEqual(shape(expected.text));
    const deleted = await read(await inMemory.fetch(requestFor(base, { method: "DELETE", path: "/buckets/same" })));
    expect(deleted).toEqual(await read(await responses.fetch(requestFor(base, { method: "DELETE", path: "/buckets/other" }))));
    expect(deleted).toMatchObject({ status: 204, text: "" });
  });
});

import { describe, expect, it } from "vitest";
import { shouldUseColor, supportsUnicode } from "../../../src/cli/io.js";
import { Progress } from "../../../src/cli/terminal/progress.js";
import { isYes } from "../../../src/cli/terminal/prompt.js";
import { Scrubber } from "../../../src/cli/terminal/scrub.js";
import { unifiedDiff } from "../../../src/cli/views/unified-diff.js";

describe("colour decision", () => {
  it.each([
    ["a TTY with no variables", false, {}, true, true],
    ["a pipe", false, {}, false, false],
    ["--no-color on a TTY", true, {}, true, false],
    ["NO_COLOR on a TTY", false, { NO_COLOR: "1" }, true, false],
    ["NO_COLOR over FORCE_COLOR", false, { NO_COLOR: "1", FORCE_COLOR: "1" }, false, false],
    ["FORCE_COLOR on a pipe", false, { FORCE_COLOR: "1" }, false, true],
    ["FORCE_COLOR=0 on a pipe", false, { FORCE_COLOR: "0" }, false, false],
    ["TERM=dumb on a TTY", false, { TERM: "dumb" }, true, false],
    ["an empty NO_COLOR on a TTY", false, { NO_COLOR: "" }, true, true],
  ])("decides %s", (_name, noColorFlag, env, isTTY, expected) => {
    expect(shouldUseColor({ noColorFlag, env, isTTY })).toBe(expected);
  });

  it.each([
    [{ LANG: "en_US.UTF-8" }, true],
    [{ LC_ALL: "C", LANG: "en_US.UTF-8" }, false],
    [{ LC_CTYPE: "C.utf8" }, true],
    [{}, false],
  ])("uses Unicode glyphs only for a UTF-8 locale (%o)", (env, expected) => {
    expect(supportsUnicode(env)).toBe(expected);
  });
});

describe("confirmation answers", () => {
  it.each([
    ["y", true], ["YES", true], [" yes ", true], ["", false], ["n", false], ["yep", false], [null, false],
  ])("treats %j as %s", (answer, expected) => {
    expect(isYes(answer)).toBe(expected);
  });
});

describe("secret scrubbing", () => {
  it("replaces known secrets of 8 or more characters, longest first, and leaves short ones", () => {
    const scrubber = new Scrubber();
    scrubber.add("abcdefgh", "abcdefgh-longer", "1", undefined);
    expect(scrubber.scrub("key abcdefgh-longer and abcdefgh; 1 to create")).toBe("key (sensitive) and (sensitive); 1 to create");
  });

  it("treats --env values as secrets only when the name looks secret", () => {
    const scrubber = new Scrubber();
    scrubber.addSecretEnv({ STRIPE_SECRET_KEY: "sk_live_123456", GREETING: "hello-there-friend", DATABASE_URL: "postgres://u:p@h/db" });
    expect(scrubber.scrub("sk_live_123456 hello-there-friend postgres://u:p@h/db")).toBe("(sensitive) hello-there-friend (sensitive)");
  });

  const SECRET = "Zq7-long-secret/value+abc?&";
  const learnt = (): Scrubber => {
    const scrubber = new Scrubber();
    scrubber.add(SECRET);
    return scrubber;
  };

  it.each([
    ["base64", Buffer.from(SECRET).toString("base64")],
    ["base64 inside a Basic credential (user:secret), each alignment", ["a:", "ab:", "abc:"].map((user) => Buffer.from(user + SECRET).toString("base64")).join(" ")],
    ["URL-safe base64 without padding", Buffer.from(`x${SECRET}`).toString("base64url")],
    ["percent-encoded (a password in a URL)", `postgres://u:${encodeURIComponent(SECRET)}@host/db`],
    ["percent-encoded, then JSON- and Markdown-escaped", JSON.stringify({ url: encodeURIComponent(SECRET) })],
  ])("masks a secret re-encoded as %s", (_name, text) => {
    const out = learnt().scrub(text);
    expect(out).toContain("(sensitive)");
    for (const form of [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString("base64").slice(0, 12)]) expect(out).not.toContain(form);
  });

  it("leaves at most the characters of a base64 text that the bytes around the secret also shape", () => {
    const encoded = Buffer.from(`ab:${SECRET}`).toString("base64");
    const out = learnt().scrub(encoded);
    expect(out).toMatch(/^YWI6(\(sensitive\))[A-Za-z0-9+/=]{0,3}$/);
  });

  it.each([
    ["a check message cut by the engine", (s: string) => `${"x".repeat(30)}${s.slice(0, 20)}… (7 more characters)`, `${"x".repeat(30)}(sensitive)… (7 more characters)`],
    ["a line cut by a view", (s: string) => `env: ${s.slice(0, 9)}…`, "env: (sensitive)…"],
    ["the start of its JSON-escaped form, cut", (s: string) => JSON.stringify(`q ${s.slice(0, 6)}…`), '"q (sensitive)…"'],
    ["two cuts in one write", (s: string) => `${s.slice(0, 5)}… and ${s.slice(0, 12)}…`, "(sensitive)… and (sensitive)…"],
  ])("masks the start of a secret that %s leaves before its '…'", (_name, cutText, expected) => {
    expect(learnt().scrub(cutText(SECRET))).toBe(expected);
  });

  it("leaves a cut text alone when fewer than four characters of a secret precede the '…', or the '…' stands elsewhere", () => {
    const scrubber = learnt();
    expect(scrubber.scrub("a Zq7… b")).toBe("a Zq7… b");
    expect(scrubber.scrub("Zq7-long… was cut")).toBe("(sensitive)… was cut");
    expect(scrubber.scrub("Zq7-long and then …")).toBe("Zq7-long and then …");
    expect(scrubber.scrub("… 3 more")).toBe("… 3 more");
  });

  it("learns a value holding a lone surrogate without failing (it has no percent-encoding)", () => {
    const scrubber = new Scrubber();
    scrubber.add("lone\ud800-surrogate-value");
    expect(scrubber.scrub("x lone\ud800-surrogate-value y")).toBe("x (sensitive) y");
  });

  it("still ignores values shorter than 8 characters, in every encoding", () => {
    const scrubber = new Scrubber();
    scrubber.add("pin1234");
    expect(scrubber.scrub(`pin1234 ${Buffer.from("pin1234").toString("base64")} pin1…`)).toBe(`pin1234 ${Buffer.from("pin1234").toString("base64")} pin1…`);
  });

  it("scrubs everything written through a wrapped stream", () => {
    const scrubber = new Scrubber();
    const written: string[] = [];
    const stream = scrubber.wrap({ write: (t: string) => written.push(t), isTTY: true });
    scrubber.add("svcemu_secretkey");
    stream.write("Authorization: Bearer svcemu_secretkey\n");
    expect(written).toEqual(["Authorization: Bearer (sensitive)\n"]);
    expect(stream.isTTY).toBe(true);
  });
});

describe("progress", () => {
  function plain(): { progress: Progress; lines: string[]; clock: { t: number } } {
    const lines: string[] = [];
    const clock = { t: Date.UTC(2025, 5, 1, 12, 0, 3, 120) };
    const progress = new Progress({ stream: { write: (s: string) => lines.push(s) }, mode: "plain", unicode: true, now: () => clock.t });
    return { progress, lines, clock };
  }

  it("prints one timestamped line per state change when not on a terminal", () => {
    const { progress, lines, clock } = plain();
    progress.onEvent({ type: "bundle", slug: "hello", phase: "start" });
    clock.t += 800;
    progress.onEvent({ type: "bundle", slug: "hello", phase: "done", zipBytes: 10 });
    progress.onEvent({ type: "change", id: "create:bucket.avatars", phase: "start" });
    progress.onEvent({ type: "change", id: "create:bucket.avatars", phase: "failed" });
    progress.stop();
    expect(lines).toEqual([
      "2025-06-01T12:00:03.120Z bundle function.hello running\n",
      "2025-06-01T12:00:03.920Z bundle function.hello done 0.8s\n",
      "2025-06-01T12:00:03.920Z change bucket.avatars running\n",
      "2025-06-01T12:00:03.920Z change bucket.avatars failed 0.0s\n",
    ]);
  });

  it("suggests SVC_FINGERPRINT_KEY once when hardened fingerprints took more than a second, and not below", () => {
    const { progress, lines } = plain();
    progress.onEvent({ type: "fingerprints", mode: "hardened", derivations: 3, ms: 900 });
    expect(lines).toEqual([]);
    progress.onEvent({ type: "fingerprints", mode: "hardened", derivations: 40, ms: 2400 });
    progress.onEvent({ type: "fingerprints", mode: "hardened", derivations: 40, ms: 2600 });
    progress.stop();
    expect(lines).toEqual([expect.stringMatching(/^hint: hardening env values for function fingerprints took 2\.4s; set SVC_FINGERPRINT_KEY/)]);
  });

  it("keeps the waits of two functions' first deployments apart (each is deployment 1)", () => {
    const { progress, lines } = plain();
    for (const slug of ["api", "thumbs"]) progress.onEvent({ type: "wait", changeId: `create:function.${slug}`, waitingFor: "deployment", id: "1", status: "building" });
    for (const slug of ["api", "thumbs"]) progress.onEvent({ type: "wait", changeId: `create:function.${slug}`, waitingFor: "deployment", id: "1", status: "completed" });
    progress.stop();
    expect(lines.map((line) => line.replace(/^\S+ /, "").replace(/ [\d.]+s\n$/, "\n"))).toEqual([
      "wait function.api deployment 1 running\n",
      "wait function.thumbs deployment 1 running\n",
      "wait function.api deployment 1 done\n",
      "wait function.thumbs deployment 1 done\n",
    ]);
  });

  it("names the function and deployment a wait is for", () => {
    const { progress, lines } = plain();
    progress.onEvent({ type: "wait", changeId: "update:function.hello", waitingFor: "deployment", id: "14", status: "building" });
    progress.stop();
    expect(lines[0]).toMatch(/ wait function\.hello deployment 14 running\n$/);
  });

  it.each([
    {
      name: "a read with its status",
      event: { type: "read", wave: 1, request: "GET /projects/calm-river-1", status: 200, ms: 12, requestId: "rid-1" },
      verbose: ["http GET /projects/calm-river-1 200 12ms rid=rid-1\n"],
    },
    {
      name: "a read that got no answer",
      event: { type: "read", wave: 2, request: "GET /projects/p/branches/b/buckets", ms: 3000, requestId: "rid-2" },
      verbose: ["http GET /projects/p/branches/b/buckets no response 3000ms rid=rid-2\n"],
    },
    {
      name: "a retry",
      event: { type: "retry", method: "POST", path: "/projects/p/branches/b/buckets", attempt: 1, delayMs: 400, status: 503, requestId: "rid-3" },
      verbose: ["retry POST /projects/p/branches/b/buckets attempt 1 in 400ms (503) rid=rid-3\n"],
    },
  ])("logs $name as one request line with --verbose only, from the engine event", ({ event, verbose }) => {
    const logged = (flag: boolean): string[] => {
      const lines: string[] = [];
      const progress = new Progress({ stream: { write: (s: string) => lines.push(s) }, mode: "plain", unicode: true, now: () => 0, verbose: flag });
      progress.onEvent(event);
      progress.stop();
      return lines.filter((l) => /^(http|retry) /.test(l));
    };
    expect(logged(true)).toEqual(verbose);
    expect(logged(false)).toEqual([]);
  });

  it("ignores unknown events and never throws", () => {
    const { progress, lines } = plain();
    expect(() => progress.onEvent(null)).not.toThrow();
    progress.onEvent({ type: "something-new" });
    progress.stop();
    expect(lines).toEqual([]);
  });

  it("collapses a finished group and right-aligns elapsed times on a terminal", () => {
    const clock = { t: 0 };
    const progress = new Progress({ stream: { write: () => undefined }, mode: "live", unicode: true, now: () => clock.t });
    for (const slug of ["a", "b"]) progress.onEvent({ type: "bundle", slug, phase: "start" });
    clock.t = 4100;
    for (const slug of ["a", "b"]) progress.onEvent({ type: "bundle", slug, phase: "done" });
    progress.onEvent({ type: "change", id: "create:function.a", phase: "start" });
    clock.t = 6300;
    const lines = progress.frameLines(80, 24);
    progress.stop();
    expect(lines[0]).toBe("✔ Bundled 2 functions in 4.1s");
    expect(lines[1]).toMatch(/^⠋ change function\.a +2\.2s$/);
    expect(lines[1]?.length).toBe(79);
  });

  it("with --quiet records nothing and writes nothing, hints and request lines included", () => {
    const written: string[] = [];
    const progress = new Progress({ stream: { write: (t: string) => (written.push(t), true) }, mode: "off", unicode: false, now: () => 0, verbose: true });
    progress.onEvent({ type: "bundle", slug: "a", phase: "start" });
    progress.onEvent({ type: "change", id: "create:bucket.b", phase: "start" });
    progress.onEvent({ type: "fingerprints", mode: "hardened", derivations: 5, ms: 5000 });
    progress.onEvent({ type: "read", request: "GET /projects/p", status: 200, ms: 12 });
    expect(progress.frameLines(80, 24)).toEqual([]);
    progress.stop();
    expect(written).toEqual([]);
  });

  it("never grows taller than the terminal minus two lines", () => {
    const progress = new Progress({ stream: { write: () => undefined }, mode: "live", unicode: false, now: () => 0 });
    for (let i = 0; i < 30; i += 1) progress.onEvent({ type: "change", id: `create:bucket.b${i}`, phase: "start" });
    const lines = progress.frameLines(80, 10);
    progress.stop();
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe("… 23 more");
  });
});

describe("unified diff", () => {
  it("shows removed and added lines with context", () => {
    const diff = unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "svc.ts", "svc.ts (pulled)");
    expect(diff).toBe("--- svc.ts\n+++ svc.ts (pulled)\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n \n");
  });
});

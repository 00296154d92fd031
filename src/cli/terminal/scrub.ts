import type { OutputStream } from "../io.js";
import { escapeMarkdown } from "../views/markdown-text.js";
import { escapeForStream, isControlSequence, shown } from "../views/outside-text.js";

/** Secrets shorter than this are not scrubbed: replacing `"1"` would garble words and counts. */
export const MIN_SCRUB_LENGTH = 8;

/** Env names whose values count as secrets when an `--env` file sets them. */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|DATABASE_URL/i;

/** `encodeURIComponent(text)`, or `text` when it holds a lone surrogate (which has no percent-encoding). */
function percentEncoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The encodings a check, hook or platform message commonly gives a secret before it is written:
 * the value itself; its base64 (standard and URL-safe) at each of the three byte alignments it can
 * have inside a longer encoded text (`base64("user:" + password)`), without the characters the
 * surrounding bytes also shape; and its percent-encoding (`encodeURIComponent`, as a password in a
 * URL). Other transformations (upper case, hashes, reversals) are not recognised.
 */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const out = [secret, percentEncoded(secret)];
  for (const lead of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString("base64");
    // Skip the characters that hold bits of the lead bytes; keep only characters made of the secret's bits alone.
    const inner = encoded.slice([0, 2, 3][lead], Math.floor(((lead + bytes.length) * 8) / 6));
    out.push(inner, inner.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/**
 * Every form a secret takes in what the CLI writes, since the views encode outside text before
 * the scrubber sees it: each of its {@link encodings} as is; as the views show it (`shown`: a line
 * break, tab or bidi override as `\uXXXX`, so a PEM key quoted in a text view is one escaped line);
 * inside a JSON string (`"`, `\` and control characters escaped), of either; and as Markdown text
 * (`escapeMarkdown`). Forms shorter than {@link MIN_SCRUB_LENGTH} are left out.
 */
function writtenForms(secret: string): string[] {
  const inJson = (text: string): string => JSON.stringify(text).slice(1, -1);
  const forms = encodings(secret).flatMap((form) => {
    const visible = shown(form);
    return [form, visible, inJson(form), inJson(visible), escapeMarkdown(form)];
  });
  return [...new Set(forms)].filter((form) => form.length >= MIN_SCRUB_LENGTH);
}

/** The mark every view leaves where it cut a text short (`text.slice(0, n) + "…"`). */
const CUT_MARK = "…";
/** What a secret, or the start of one, is replaced with. */
const SENSITIVE = "(sensitive)";
/** The fewest characters of a secret, just before a {@link CUT_MARK}, that are masked as a cut secret. */
export const MIN_CUT_PREFIX = 4;

/**
 * Defence in depth: remembers known secrets and replaces every occurrence of one
 * of at least {@link MIN_SCRUB_LENGTH} characters with `(sensitive)`, longest first, before any
 * write to a stream or file, in each form a view or a JSON document writes it ({@link writtenForms}),
 * and the start of one that a view cut short. The views themselves never print an env value; what
 * this catches is text from outside them (a check's message, a hook's output, a platform error).
 */
export class Scrubber {
  /** The secrets as given. */
  readonly #learnt = new Set<string>();
  /** Every written form of each ({@link writtenForms}). */
  readonly #secrets = new Set<string>();
  #ordered: string[] = [];
  /** The forms by their first character, to find a cut secret's start ({@link Scrubber.scrub}). */
  readonly #byFirstCharacter = new Map<string, string[]>();
  #longestForm = 0;

  /** Adds secrets (each in every written form); short and empty values are ignored. */
  add(...values: readonly (string | undefined)[]): void {
    let changed = false;
    for (const value of values) {
      if (value === undefined || value.length < MIN_SCRUB_LENGTH || this.#learnt.has(value)) continue;
      this.#learnt.add(value);
      for (const form of writtenForms(value)) this.#secrets.add(form);
      changed = true;
    }
    if (!changed) return;
    this.#ordered = [...this.#secrets].sort((a, b) => b.length - a.length);
    this.#longestForm = this.#ordered[0]?.length ?? 0;
    this.#byFirstCharacter.clear();
    for (const form of this.#ordered) {
      const first = form[0] ?? "";
      this.#byFirstCharacter.set(first, [...(this.#byFirstCharacter.get(first) ?? []), form]);
    }
  }

  /** Adds the values of env entries whose names look secret. */
  addSecretEnv(entries: Record<string, string>): void {
    this.add(...Object.entries(entries).filter(([name]) => SECRET_NAME.test(name)).map(([, value]) => value));
  }

  /** `text` with every known secret replaced. */
  scrub(text: string): string {
    // Nothing learnt (a run without secrets in its env): nothing to replace, no cut start to find.
    if (this.#ordered.length === 0) return text;
    let out = text;
    for (const secret of this.#ordered) if (out.includes(secret)) out = out.split(secret).join(SENSITIVE);
    return out.includes(CUT_MARK) ? this.#maskCutStarts(out) : out;
  }

  /**
   * `text` where each {@link CUT_MARK} directly follows the start of a known secret's form (at least
   * {@link MIN_CUT_PREFIX} characters of it: a view cut the secret short) with that start masked.
   */
  #maskCutStarts(text: string): string {
    const pieces = text.split(CUT_MARK);
    for (let i = 0; i < pieces.length - 1; i++) {
      const before = pieces[i] ?? "";
      // The earliest start wins: it is the longest part of a secret the cut left.
      for (let j = Math.max(0, before.length - this.#longestForm + 1); j <= before.length - MIN_CUT_PREFIX; j++) {
        const candidates = this.#byFirstCharacter.get(before[j] ?? "");
        if (candidates === undefined) continue;
        const tail = before.slice(j);
        if (candidates.some((form) => form.length > tail.length && form.startsWith(tail))) {
          pieces[i] = `${before.slice(0, j)}${SENSITIVE}`;
          break;
        }
      }
    }
    return pieces.join(CUT_MARK);
  }

  /**
   * A stream that scrubs everything written to `stream` and escapes, as the last line of
   * defence, every character a view let through that could forge a line, move the cursor or
   * reorder text (`escapeForStream`). `control` writes the CLI's own cursor moves (the live
   * progress list); anything else given to it is escaped like any write.
   */
  wrap(stream: OutputStream): OutputStream {
    const write = (text: string): unknown => stream.write(escapeForStream(this.scrub(text)));
    const wrapped: OutputStream = {
      write,
      control: (sequence: string) => (isControlSequence(sequence) ? stream.write(sequence) : write(sequence)),
    };
    Object.defineProperties(wrapped, {
      isTTY: { get: () => stream.isTTY },
      columns: { get: () => stream.columns },
      rows: { get: () => stream.rows },
    });
    return wrapped;
  }
}

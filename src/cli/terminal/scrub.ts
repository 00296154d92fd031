import type { OutputStream } from "../io.js";
import { escapeMarkdown } from "../views/markdown-text.js";
import { escapeForStream, isControlSequence, shown } from "../views/outside-text.js";

/** Secrets shorter than this are not scrubbed: replacing `"1"` would garble words and counts. */
export const MIN_SCRUB_LENGTH = 8;

/** Env names whose values count as secrets when an `--env` file sets them. */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|DATABASE_URL/i;

/**
 * Every form a secret takes in what the CLI writes, since the views encode outside text before
 * the scrubber sees it: as is; as the views show it (`shown`: a line break, tab or bidi override as
 * `\uXXXX`, so a PEM key quoted in a text view is one escaped line); inside a JSON string (`"`,
 * `\` and control characters escaped), of either; and as Markdown text (`escapeMarkdown`).
 */
function writtenForms(secret: string): string[] {
  const inJson = (text: string): string => JSON.stringify(text).slice(1, -1);
  const visible = shown(secret);
  return [...new Set([secret, visible, inJson(secret), inJson(visible), escapeMarkdown(secret)])];
}

/**
 * Defence in depth: remembers known secrets and replaces every occurrence of one
 * of at least {@link MIN_SCRUB_LENGTH} characters with `(sensitive)`, longest first, before any
 * write to a stream or file, in each form a view or a JSON document writes it ({@link writtenForms}).
 */
export class Scrubber {
  /** The secrets as given. */
  readonly #learnt = new Set<string>();
  /** Every written form of each ({@link writtenForms}). */
  readonly #secrets = new Set<string>();
  #ordered: string[] = [];

  /** Adds secrets (each in every written form); short and empty values are ignored. */
  add(...values: readonly (string | undefined)[]): void {
    let changed = false;
    for (const value of values) {
      if (value === undefined || value.length < MIN_SCRUB_LENGTH || this.#learnt.has(value)) continue;
      this.#learnt.add(value);
      for (const form of writtenForms(value)) this.#secrets.add(form);
      changed = true;
    }
    if (changed) this.#ordered = [...this.#secrets].sort((a, b) => b.length - a.length);
  }

  /** Adds the values of env entries whose names look secret. */
  addSecretEnv(entries: Record<string, string>): void {
    this.add(...Object.entries(entries).filter(([name]) => SECRET_NAME.test(name)).map(([, value]) => value));
  }

  /** `text` with every known secret replaced. */
  scrub(text: string): string {
    let out = text;
    for (const secret of this.#ordered) if (out.includes(secret)) out = out.split(secret).join("(sensitive)");
    return out;
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

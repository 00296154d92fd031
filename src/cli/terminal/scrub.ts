import type { OutputStream } from "../io.js";
import { escapeForStream, isControlSequence } from "../views/outside-text.js";

/** Secrets shorter than this are not scrubbed: replacing `"1"` would garble words and counts. */
export const MIN_SCRUB_LENGTH = 8;

/** Env names whose values count as secrets when an `--env` file sets them. */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|DATABASE_URL/i;

/**
 * Defence in depth: remembers known secrets and replaces every occurrence of one
 * of at least {@link MIN_SCRUB_LENGTH} characters with `(sensitive)`, longest first, before any
 * write to a stream or file.
 */
export class Scrubber {
  readonly #secrets = new Set<string>();
  #ordered: string[] = [];

  /** Adds secrets; short and empty values are ignored. */
  add(...values: readonly (string | undefined)[]): void {
    let changed = false;
    for (const value of values) {
      if (value !== undefined && value.length >= MIN_SCRUB_LENGTH && !this.#secrets.has(value)) {
        this.#secrets.add(value);
        changed = true;
      }
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

/**
 * The parts the emulator's logs share (the request log, the invocation log): a ring of the last
 * entries, oldest first when read, and a sink that writes nowhere, text or JSON lines on stderr,
 * or to a callback.
 */
import { writeStderrLines } from "./stderr-lines.js";

/** Where log lines go: nowhere, stderr as text or JSON lines, or a callback. */
export type LogSink<T> = "off" | "text" | "json" | ((entry: T) => void);

/** Writes one entry to its sink; `format` gives the text line. Lines for stderr leave with the others of the same turn. */
export function writeToSink<T>(sink: LogSink<T>, entry: T, format: (entry: T) => string): void {
  if (sink === "off") return;
  if (typeof sink === "function") sink(entry);
  else writeStderrLines(`${sink === "json" ? JSON.stringify(entry) : format(entry)}\n`);
}

/** The last `size` entries. */
export class LogRing<T> {
  private items: T[] = [];
  private next = 0;

  constructor(private readonly size = 1000) {}

  push(entry: T): void {
    if (this.items.length < this.size) this.items.push(entry);
    else this.items[this.next] = entry;
    this.next = (this.next + 1) % this.size;
  }

  /** The most recent entries, oldest first. @default limit the ring's size */
  recent(limit = this.size): T[] {
    const ordered = this.items.length < this.size ? [...this.items] : [...this.items.slice(this.next), ...this.items.slice(0, this.next)];
    return ordered.slice(Math.max(0, ordered.length - limit));
  }
}

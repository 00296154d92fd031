import type { OutputStream } from "../io.js";
import { printedLines, shown } from "../views/outside-text.js";
import { formatSeconds } from "../views/seconds.js";
import { requestLogLine } from "./request-log.js";

/** A task's state. */
export type TaskState = "queued" | "running" | "done" | "failed" | "skipped";

interface Task {
  key: string;
  subject: string;
  group: string;
  state: TaskState;
  startedAt: number;
  endedAt?: number;
  /** Last time a plain "still running" line was printed. */
  lastNoticeAt: number;
}

/** How progress is shown: a live list (interactive), plain lines (CI, pipes) or nothing (`--quiet`: events are not even recorded). */
export type ProgressMode = "live" | "plain" | "off";

/** Options of {@link Progress}. */
export interface ProgressOptions {
  stream: OutputStream;
  mode: ProgressMode;
  /** UTF-8 glyphs; else ASCII. */
  unicode: boolean;
  now: () => number;
  /** Extra lines for `--verbose`: one per request, from the engine's `read` and `retry` events. */
  verbose?: boolean;
}

const GROUP_TITLE: Record<string, (n: number) => string> = {
  read: () => "Read the branch",
  bundle: (n) => `Bundled ${n} function${n === 1 ? "" : "s"}`,
  change: (n) => `Applied ${n} change${n === 1 ? "" : "s"}`,
  wait: (n) => `Waited for ${n} operation${n === 1 ? "" : "s"}`,
};

const STILL_RUNNING_MS = 30_000;
const FRAME_MS = 100;
/** Hardened fingerprint derivation longer than this prints one hint. */
const FINGERPRINT_HINT_MS = 1000;

/** The one-line hint suggesting keyed fingerprints. */
export function fingerprintHint(ms: number): string {
  return `hint: hardening env values for function fingerprints took ${formatSeconds(ms)}; set SVC_FINGERPRINT_KEY (32+ random bytes, hex or base64, kept with your CI secrets) to make it instant`;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

function phaseOf(event: Record<string, unknown>): string | undefined {
  return text(event.phase) ?? text(event.state) ?? text(event.stage) ?? text(event.status);
}

function stateOfPhase(phase: string | undefined): TaskState {
  switch (phase) {
    case "start":
    case "running":
    case "pending":
    case "building":
    case "scheduling":
      return "running";
    case "done":
    case "finished":
    case "completed":
    case "skipped-op":
      return "done";
    case "failed":
    case "error":
    case "cancelled":
      return "failed";
    case "skipped":
      return "skipped";
    default:
      return "running";
  }
}

/** The address inside a change id (`update:compute` → `compute`). */
function addressOfChangeId(id: string): string {
  const colon = id.indexOf(":");
  return colon < 0 ? id : id.slice(colon + 1);
}

/**
 * Turns the engine's `onEvent` stream into progress on stderr: a live task list
 * with a spinner and right-aligned elapsed times on a terminal (redrawn at most 10 times a
 * second, finished groups collapsed, never taller than the terminal minus 2 lines), or plain
 * timestamped lines, one per state change, elsewhere.
 */
export class Progress {
  readonly #options: ProgressOptions;
  readonly #tasks = new Map<string, Task>();
  #drawnLines = 0;
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #stopped = false;
  #hinted = false;

  constructor(options: ProgressOptions) {
    this.#options = options;
    if (options.mode !== "off") {
      this.#timer = setInterval(() => this.#tick(), options.mode === "live" ? FRAME_MS : 1000);
      this.#timer.unref();
    }
  }

  /** The engine event handler; unknown events are ignored, and it never throws. */
  readonly onEvent = (event: unknown): void => {
    // Nothing is ever shown in this mode (not even notes), so a task per change and wait would be kept for nothing.
    if (this.#options.mode === "off") return;
    try {
      this.#handle(event);
    } catch {
      // Progress must never break an apply.
    }
  };

  /** Starts or updates a task; the subject (it holds live names) is shown escaped. */
  update(key: string, subject: string, group: string, state: TaskState): void {
    if (this.#stopped) return;
    const now = this.#options.now();
    let task = this.#tasks.get(key);
    if (task === undefined) {
      task = { key, subject: shown(subject), group, state, startedAt: now, lastNoticeAt: now };
      this.#tasks.set(key, task);
    } else if (task.state === state) {
      return;
    } else {
      task.state = state;
    }
    if (state === "done" || state === "failed" || state === "skipped") task.endedAt = now;
    if (this.#options.mode === "plain") this.#plainLine(task);
  }

  /** Prints a line above the live list (or as is in plain mode), e.g. a `--verbose` request log line. */
  note(line: string): void {
    if (this.#options.mode === "off" || this.#stopped) return;
    this.#clear();
    this.#options.stream.write(printedLines([line]));
    this.#drawnLines = 0;
  }

  /** Draws the final frame and stops redrawing; later events are ignored. */
  stop(): void {
    if (this.#stopped) return;
    if (this.#options.mode === "live") this.#draw(true);
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }

  #handle(raw: unknown): void {
    if (typeof raw !== "object" || raw === null) return;
    const event = raw as Record<string, unknown>;
    const type = text(event.type);
    const phase = phaseOf(event);
    const logLine = this.#options.verbose === true ? requestLogLine(event) : undefined;
    if (logLine !== undefined) this.note(logLine);
    if (type === "read") {
      this.update("read", "read branch state", "read", "running");
    } else if (type === "plan") {
      this.update("read", "read branch state", "read", "done");
    } else if (type === "bundle") {
      const slug = text(event.slug) ?? "?";
      this.update(`bundle:${slug}`, `bundle function.${slug}`, "bundle", stateOfPhase(phase));
    } else if (type === "change") {
      const id = text(event.id) ?? text(event.changeId) ?? "?";
      this.update(`change:${id}`, `change ${addressOfChangeId(id)}`, "change", stateOfPhase(phase));
    } else if (type === "fingerprints" && typeof event.ms === "number" && event.ms > FINGERPRINT_HINT_MS && !this.#hinted) {
      this.#hinted = true;
      this.note(fingerprintHint(event.ms));
    } else if (type === "wait") {
      const id = text(event.id) ?? text(event.operationId) ?? text(event.deploymentId) ?? "?";
      const what = text(event.waitingFor) ?? text(event.kind) ?? text(event.what) ?? "operation";
      const changeId = text(event.changeId) ?? text(event.change);
      const subject = what === "deployment" && changeId !== undefined ? `wait ${addressOfChangeId(changeId)} deployment ${id}` : `wait ${what} ${id}`;
      // Deployment ids count per function (every first deployment is 1): the change tells them apart.
      this.update(`wait:${what}:${changeId ?? ""}:${id}`, subject, "wait", stateOfPhase(text(event.status) ?? phase));
    }
  }

  #elapsed(task: Task): string {
    return formatSeconds((task.endedAt ?? this.#options.now()) - task.startedAt);
  }

  #plainLine(task: Task): void {
    const stamp = new Date(this.#options.now()).toISOString();
    const elapsed = task.state === "running" || task.state === "queued" ? "" : ` ${this.#elapsed(task)}`;
    this.#options.stream.write(`${stamp} ${task.subject} ${task.state}${elapsed}\n`);
  }

  #tick(): void {
    if (this.#stopped) return;
    if (this.#options.mode === "live") {
      this.#frame += 1;
      this.#draw(false);
      return;
    }
    const now = this.#options.now();
    for (const task of this.#tasks.values()) {
      if (task.state === "running" && now - task.lastNoticeAt >= STILL_RUNNING_MS) {
        task.lastNoticeAt = now;
        const seconds = Math.floor((now - task.startedAt) / 1000);
        this.#options.stream.write(`${new Date(now).toISOString()} ${task.subject} still running ${seconds}s\n`);
      }
    }
  }

  /** The lines of the live list, groups collapsed once every task in them finished. */
  frameLines(width: number, height: number): string[] {
    const unicode = this.#options.unicode;
    const spinner = unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["-", "\\", "|", "/"];
    const glyph = (state: TaskState): string => {
      if (state === "done") return unicode ? "✔" : "+";
      if (state === "failed") return unicode ? "✘" : "x";
      if (state === "skipped") return unicode ? "·" : ".";
      return spinner[this.#frame % spinner.length] ?? "*";
    };
    const line = (mark: string, subject: string, elapsed: string): string => {
      const room = Math.max(10, width - elapsed.length - 4);
      // The line stays one column short of the width, so no terminal wraps it.
      const cut = subject.length > room ? `${subject.slice(0, room - 1)}…` : subject;
      return `${mark} ${cut.padEnd(Math.max(0, width - elapsed.length - 4))} ${elapsed}`;
    };
    const groups = new Map<string, Task[]>();
    for (const task of this.#tasks.values()) groups.set(task.group, [...(groups.get(task.group) ?? []), task]);
    const lines: string[] = [];
    for (const [group, tasks] of groups) {
      const finished = tasks.every((t) => t.state === "done" || t.state === "failed" || t.state === "skipped");
      if (finished && tasks.every((t) => t.state === "done")) {
        const start = Math.min(...tasks.map((t) => t.startedAt));
        const end = Math.max(...tasks.map((t) => t.endedAt ?? t.startedAt));
        const title = (GROUP_TITLE[group] ?? ((n: number) => `${group} ${n}`))(tasks.length);
        lines.push(`${glyph("done")} ${title} in ${formatSeconds(end - start)}`.slice(0, Math.max(1, width - 1)));
      } else {
        for (const task of tasks) lines.push(line(glyph(task.state), task.subject, this.#elapsed(task)));
      }
    }
    const max = Math.max(1, height - 2);
    if (lines.length <= max) return lines;
    const hidden = lines.length - (max - 1);
    return [`… ${hidden} more`, ...lines.slice(hidden)];
  }

  #clear(): void {
    if (this.#options.mode !== "live" || this.#drawnLines === 0) return;
    const stream = this.#options.stream;
    const sequence = `\u001b[${this.#drawnLines}F\u001b[J`;
    if (stream.control === undefined) stream.write(sequence);
    else stream.control(sequence);
  }

  #draw(final: boolean): void {
    const stream = this.#options.stream;
    const width = stream.columns ?? 80;
    const height = stream.rows ?? 24;
    const lines = this.frameLines(width, height);
    if (lines.length === 0 && !final) return;
    this.#clear();
    stream.write(lines.map((l) => `${l}\n`).join(""));
    this.#drawnLines = lines.length;
  }
}

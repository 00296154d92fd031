import type { ErrorCode } from "./codes.js";

/** Details of an error: JSON-safe values only (plain data, no secrets); frozen once built. */
export type ErrorDetails = { readonly [key: string]: unknown };

/** Options shared by every error constructor. */
export interface PlatformErrorOptions<D extends ErrorDetails = ErrorDetails> {
  /** JSON-safe facts about the failure. @default {} */
  details?: D;
  /** The underlying error, kept for debugging. */
  cause?: unknown;
}

/**
 * Base of every error the library throws: a stable `code`, frozen JSON-safe `details`, an
 * optional `cause` and a message that names the resource or file and says what to do.
 * Never carries secrets. Each subclass types its `details` (`D`); an error built from this class
 * directly carries loosely typed ones.
 */
export class PlatformError<D extends ErrorDetails = ErrorDetails> extends Error {
  /** Stable code starting with `PLATFORM_`. */
  readonly code: ErrorCode;
  /** Frozen JSON-safe details, typed by the subclass. */
  readonly details: Readonly<D>;

  constructor(code: ErrorCode, message: string, options: PlatformErrorOptions<D> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = deepFreeze({ ...(options.details ?? {}) } as D);
  }

  /** The error as plain data (no stack, no cause): safe to print as JSON. */
  toJSON(): { name: string; code: ErrorCode; message: string; details: Readonly<D> } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

/**
 * Whether `err` is an error of this library, optionally with the given `code`. Code-based, not
 * `instanceof`: every object whose `code` is a string starting with `PLATFORM_` counts, so errors
 * from a second copy of the package (a policy evaluated through jiti) are recognised too.
 */
export function isPlatformError(err: unknown, code?: ErrorCode): err is PlatformError {
  if (typeof err !== "object" || err === null) return false;
  const actual = (err as { code?: unknown }).code;
  if (typeof actual !== "string" || !actual.startsWith("PLATFORM_")) return false;
  return code === undefined || actual === code;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Reading a response body (a value `JSON.parse` returned) with the client's zod schemas in one
 * pass: each value is checked and what the schema keeps is copied once, without zod's per-value
 * bookkeeping (payload and issue records, the cycle guard, the copy that drops `null`s). The
 * reader only answers "this value" or {@link REFUSED}; on a refusal the caller parses the body
 * with the zod schema itself, whose first issue names the field, so errors stay zod's, word for
 * word.
 *
 * Contract (`test/unit/api/response-reader.test.ts` checks it against zod): for every JSON value,
 * the reader accepts only what the zod schema accepts, with a deep-equal result. A part of a
 * schema it has no rule for (a check such as `.min()`, a refinement, a loose object, an
 * asynchronous or issue-raising transform) is read by zod's `safeParse` of that part.
 */
import { z } from "zod";

/** The reader's answer for a value its schema does not accept. */
export const REFUSED: unique symbol = Symbol("refused");

type Read = (value: unknown) => unknown;

/** Removes the `null`-valued keys of an object, so `null` reads as absent. */
function dropNulls(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

/** A wire record as the client reads it: unknown fields dropped, `null` fields absent. */
export function lenient<S extends z.core.$ZodShape, C extends z.core.$ZodObjectConfig>(record: z.ZodObject<S, C>) {
  return z.preprocess(dropNulls, record.strip());
}

const readers = new WeakMap<z.core.$ZodType, Read>();

/**
 * `value` read with `schema`, or {@link REFUSED} when the schema does not accept it. `value` is
 * what `JSON.parse` returns (no `undefined`, functions or class instances inside).
 */
export function readResponse<T>(schema: z.ZodType<T>, value: unknown): T | typeof REFUSED {
  return readerOf(schema)(value) as T | typeof REFUSED;
}

function readerOf(schema: z.core.$ZodType): Read {
  let read = readers.get(schema);
  if (read === undefined) {
    read = compile(schema);
    readers.set(schema, read);
  }
  return read;
}

/** zod's own parse of a part the reader has no rule for. */
function zodRead(schema: z.core.$ZodType): Read {
  return (value) => {
    const result = z.safeParse(schema, value);
    return result.success ? result.data : REFUSED;
  };
}

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

function compile(schema: z.core.$ZodType): Read {
  const def = schema._zod.def as Def;
  if (Array.isArray(def["checks"]) && def["checks"].length > 0) return zodRead(schema);
  switch (def.type) {
    case "string":
      return (v) => (typeof v === "string" ? v : REFUSED);
    case "number":
      return (v) => (typeof v === "number" && Number.isFinite(v) ? v : REFUSED);
    case "boolean":
      return (v) => (typeof v === "boolean" ? v : REFUSED);
    case "unknown":
      return (v) => v;
    case "optional":
      return optionalReader(def["innerType"] as z.core.$ZodType);
    case "nullable": {
      const inner = readerOf(def["innerType"] as z.core.$ZodType);
      return (v) => (v === null ? null : inner(v));
    }
    case "nonoptional": {
      const inner = readerOf(def["innerType"] as z.core.$ZodType);
      return (v) => {
        const read = inner(v);
        return read === undefined ? REFUSED : read;
      };
    }
    case "default":
      return defaultReader(def as unknown as { innerType: z.core.$ZodType; defaultValue: unknown });
    case "array": {
      const element = readerOf(def["element"] as z.core.$ZodType);
      return (v) => {
        if (!Array.isArray(v)) return REFUSED;
        const out: unknown[] = new Array(v.length);
        for (let i = 0; i < v.length; i += 1) {
          const read = element(v[i]);
          if (read === REFUSED) return REFUSED;
          out[i] = read;
        }
        return out;
      };
    }
    case "record":
      return recordReader(schema, def);
    case "union": {
      const options = (def["options"] as z.core.$ZodType[]).map(readerOf);
      return (v) => {
        for (const option of options) {
          const read = option(v);
          if (read !== REFUSED) return read;
        }
        return REFUSED;
      };
    }
    case "pipe":
      return pipeReader(def as unknown as { in: z.core.$ZodType; out: z.core.$ZodType });
    case "transform": {
      const transform = def["transform"] as (value: unknown) => unknown;
      // A transform that takes the payload may raise issues: zod runs it.
      if (transform.length > 1) return zodRead(schema);
      return (v) => {
        const out = transform(v);
        return out instanceof Promise ? zodRead(schema)(v) : out;
      };
    }
    case "object": {
      const fields = def["catchall"] === undefined ? objectFields(schema) : undefined;
      return fields === undefined ? zodRead(schema) : objectReader(fields, false);
    }
    default:
      return zodRead(schema);
  }
}

/** zod's `.optional()`: absence stays absent unless the inner schema supplies a default. */
function optionalReader(innerType: z.core.$ZodType): Read {
  const inner = readerOf(innerType);
  return (v) => {
    if (v !== undefined) return inner(v);
    if (innerType._zod.optin !== "defaulted") return undefined;
    const read = inner(undefined);
    return read === REFUSED ? undefined : read;
  };
}

/** zod's `.default()`: the default for absence, and for an inner result of `undefined`. */
function defaultReader(def: { innerType: z.core.$ZodType; defaultValue: unknown }): Read {
  const inner = readerOf(def.innerType);
  return (v) => {
    if (v === undefined) return def.defaultValue;
    const read = inner(v);
    return read === undefined ? def.defaultValue : read;
  };
}

/** A pipe; {@link lenient}'s is read as an object whose `null` fields are absent, without the copy. */
function pipeReader(def: { in: z.core.$ZodType; out: z.core.$ZodType }): Read {
  const first = def.in._zod.def as Def;
  const second = def.out._zod.def as Def;
  if (first.type === "transform" && first["transform"] === dropNulls && second.type === "object" && second["catchall"] === undefined) {
    const checks = second["checks"];
    const fields = Array.isArray(checks) && checks.length > 0 ? undefined : objectFields(def.out);
    if (fields !== undefined) return objectReader(fields, true);
  }
  const left = readerOf(def.in);
  const right = readerOf(def.out);
  return (v) => {
    const read = left(v);
    return read === REFUSED ? REFUSED : right(read);
  };
}

/** A record with plain string keys; any other key schema is zod's. */
function recordReader(schema: z.core.$ZodType, def: Def): Read {
  const keyDef = (def["keyType"] as z.core.$ZodType)._zod.def as Def;
  const keyChecks = keyDef["checks"];
  if (keyDef.type !== "string" || (Array.isArray(keyChecks) && keyChecks.length > 0) || def["mode"] === "loose") return zodRead(schema);
  const value = readerOf(def["valueType"] as z.core.$ZodType);
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return REFUSED;
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      // zod skips it too: assigning it would replace the result's prototype.
      if (key === "__proto__") continue;
      const read = value(input[key]);
      if (read === REFUSED) return REFUSED;
      out[key] = read;
    }
    return out;
  };
}

interface Field {
  key: string;
  read: Read;
  /** How absence is read, as zod's object does: kept absent, filled in, or refused. */
  absent: "optional" | "filled" | "required";
  /** Kept when absent and read as `undefined` (zod's defaulted fields). */
  keepUndefined: boolean;
}

/**
 * The fields of an object schema in shape order; `undefined` when a key is one `in` finds on
 * every object (zod would read the prototype's value: left to zod).
 */
function objectFields(schema: z.core.$ZodType): Field[] | undefined {
  const shape = (schema._zod.def as Def)["shape"] as Record<string, z.core.$ZodType>;
  const keys = Object.keys(shape).filter((key) => key !== "__proto__");
  if (keys.some((key) => key in Object.prototype)) return undefined;
  return keys.map((key) => {
    const field = shape[key] as z.core.$ZodType;
    const { optin, optout } = field._zod;
    const absent = optin === undefined ? "required" : optout === "optional" ? "optional" : "filled";
    return { key, read: readerOf(field), absent, keepUndefined: optin === "defaulted" };
  });
}

/**
 * A stripping object: unknown keys dropped, each field read as zod's object reads it. With
 * `nullsAbsent`, a `null` field reads as an absent one.
 */
function objectReader(fields: readonly Field[], nullsAbsent: boolean): Read {
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return REFUSED;
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      let value = input[field.key];
      let present = value !== undefined || field.key in input;
      if (nullsAbsent && value === null) {
        value = undefined;
        present = false;
      }
      const read = field.read(value);
      if (field.absent === "optional") {
        if (read === REFUSED) {
          if (present) return REFUSED;
          continue;
        }
        if (present || (field.keepUndefined && read !== undefined)) out[field.key] = read;
      } else if (field.absent === "required") {
        if (read === REFUSED || !present) return REFUSED;
        out[field.key] = read;
      } else {
        if (read === REFUSED) return REFUSED;
        if (field.keepUndefined || read !== undefined || present) out[field.key] = read;
      }
    }
    return out;
  };
}

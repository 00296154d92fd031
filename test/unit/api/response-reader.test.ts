import { describe, expect, it } from "vitest";
import { z } from "zod";
import { envelopes } from "../../../src/api/response-envelopes.js";
import { REFUSED, lenient, readResponse } from "../../../src/api/response-reader.js";
import * as responseSchemas from "../../../src/api/response-schemas.js";

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as Def;

/** A JSON value `schema` accepts, every optional field present (`full`) or absent. */
function sampleOf(schema: z.core.$ZodType, full: boolean): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return "text";
    case "number":
      return 7;
    case "boolean":
      return true;
    case "unknown":
      return { any: ["thing"] };
    case "optional":
    case "default":
      return full ? sampleOf(def["innerType"] as z.core.$ZodType, full) : undefined;
    case "nullable":
      return full ? sampleOf(def["innerType"] as z.core.$ZodType, full) : null;
    case "nonoptional":
      return sampleOf(def["innerType"] as z.core.$ZodType, full);
    case "array":
      return [sampleOf(def["element"] as z.core.$ZodType, full), sampleOf(def["element"] as z.core.$ZodType, !full)];
    case "record":
      return { first: sampleOf(def["valueType"] as z.core.$ZodType, full), second: sampleOf(def["valueType"] as z.core.$ZodType, !full) };
    case "union":
      return sampleOf((def["options"] as z.core.$ZodType[])[full ? 0 : 1] ?? (def["options"] as z.core.$ZodType[])[0] as z.core.$ZodType, full);
    case "pipe":
      return sampleOf(def["in"] as z.core.$ZodType, full) ?? sampleOf(def["out"] as z.core.$ZodType, full);
    case "transform":
      return undefined;
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def["shape"] as Record<string, z.core.$ZodType>)) {
        const value = sampleOf(field, full);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    default:
      throw new Error(`no sample for ${def.type}`);
  }
}

const REPLACEMENTS: unknown[] = [null, 0, -1.5, "", "text", true, false, [], [null], {}, { extra: 1 }];

/** Every value one change away from `value`: each place replaced, removed, or given extra keys. */
function variantsOf(value: unknown): unknown[] {
  const out: unknown[] = REPLACEMENTS.filter((r) => r !== value);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const changed of variantsOf(item)) out.push(value.map((each, j) => (j === i ? changed : each)));
    });
    out.push(value.slice(1));
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    out.push({ ...record, surprise: "kept out" }, JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(record).slice(1)}`.replace(/, }$/, "}")));
    for (const key of Object.keys(record)) {
      const { [key]: _removed, ...rest } = record;
      out.push(rest);
      for (const changed of variantsOf(record[key])) out.push({ ...record, [key]: changed });
    }
  }
  return out;
}

function expectSameAsZod(schema: z.ZodType, value: unknown): void {
  const json: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  const read = readResponse(schema, json);
  const parsed = schema.safeParse(json);
  if (read === REFUSED) {
    expect(parsed.success, `zod accepts what the reader refuses: ${JSON.stringify(json)}`).toBe(false);
  } else {
    expect(parsed.success, `the reader accepts what zod refuses: ${JSON.stringify(json)}`).toBe(true);
    expect(read).toStrictEqual(parsed.data);
  }
}

const schemas: [string, z.ZodType][] = [
  ...Object.entries(responseSchemas as Record<string, unknown>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType),
  ...Object.entries(envelopes()).map(([name, schema]) => [`envelope ${name}`, schema as z.ZodType] as [string, z.ZodType]),
];

describe("readResponse", () => {
  it.each(schemas)("reads %s as zod does, for valid bodies and for every body one change away", (_name, schema) => {
    for (const full of [true, false]) {
      const sample = sampleOf(schema, full);
      expectSameAsZod(schema, sample);
      for (const variant of variantsOf(sample)) expectSameAsZod(schema, variant);
    }
  });

  it("reads a null field of a wire record as absent, without keeping unknown fields", () => {
    const record = lenient(z.object({ id: z.string(), note: z.string().optional() }));

    expect(readResponse(record, JSON.parse('{"id": "a", "note": null, "other": 1}'))).toStrictEqual({ id: "a" });
    expect(readResponse(record, JSON.parse('{"id": null}'))).toBe(REFUSED);
  });

  it("leaves to zod what it has no rule for: checks, refinements, loose objects and issue-raising transforms", () => {
    const cases: [z.ZodType, unknown[]][] = [
      [z.object({ name: z.string().min(2) }), [{ name: "ab" }, { name: "a" }]],
      [z.array(z.number().int()), [[1, 2], [1.5]]],
      [z.string().refine((s) => s.startsWith("x")), ["xy", "y"]],
      [z.looseObject({ id: z.string() }), [{ id: "a", more: [1] }, { more: 1 }]],
      [z.record(z.enum(["a", "b"]), z.number()), [{ a: 1, b: 2 }, { a: 1 }, { c: 1 }]],
      [z.string().transform((s, ctx) => (s === "bad" ? (ctx.addIssue({ code: "custom", message: "bad" }), s) : s.length)), ["good", "bad"]],
    ];
    for (const [schema, values] of cases) for (const value of values) expectSameAsZod(schema, value);
  });

  it("keeps __proto__ out of records and objects, as zod does", () => {
    const body = JSON.parse('{"annotations": {"__proto__": {"value": {"polluted": "1"}}, "br-1": {"value": {"k": "v"}}}, "branches": [], "__proto__": {"x": 1}}');

    const read = readResponse(envelopes().branchPage, body);

    expect(read).toStrictEqual(envelopes().branchPage.parse(body));
    expect(Object.getPrototypeOf((read as { annotations: object }).annotations)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

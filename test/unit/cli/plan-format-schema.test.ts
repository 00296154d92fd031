import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorDocumentSchema, planDocumentSchema } from "../../../src/cli/views/json-schema.js";

const FILE = join(import.meta.dirname, "..", "..", "..", "docs", "plan-format.schema.json");

/** The published JSON Schema, generated from the zod schema the CLI validates with. */
function generated(): string {
  const schema = {
    title: "svc plan/apply document, formatVersion 1",
    description: "Output of `svc config plan --json` and `svc config apply --json` (docs/plan-format.md), or the error document of a failed --json command.",
    ...z.toJSONSchema(z.union([planDocumentSchema, errorDocumentSchema]), { io: "output" }),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

describe("docs/plan-format.schema.json", () => {
  it("matches the zod schema the CLI's own output is validated against", () => {
    const expected = generated();
    if (process.env.SVC_UPDATE_FIXTURES === "1" && (process.env.CI ?? "") === "") writeFileSync(FILE, expected);
    expect(readFileSync(FILE, "utf8"), "regenerate with SVC_UPDATE_FIXTURES=1 npx vitest run test/unit/cli/plan-format-schema.test.ts").toBe(expected);
  });
});

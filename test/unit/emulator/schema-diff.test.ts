import { describe, expect, it } from "vitest";
import { EMPTY_SCHEMA, relationKey, schemaSql, unifiedDiff, type DatabaseSchema } from "../../../src/emulator/engine/schema-diff.js";

const notes: DatabaseSchema = {
  tables: [{ schema: "public", name: "notes", columns: [{ name: "id", type: "integer", nullable: false, default: "nextval('notes_id_seq'::regclass)" }, { name: "body", type: "text", nullable: true }] }],
  statements: ["ALTER TABLE ONLY public.notes ADD CONSTRAINT notes_pkey PRIMARY KEY (id)"],
};

describe("schemaSql", () => {
  it("renders an empty schema as empty text", () => {
    expect(schemaSql(EMPTY_SCHEMA)).toBe("");
  });

  it("renders tables with columns, defaults and NOT NULL, then the other statements", () => {
    expect(schemaSql(notes)).toBe(
      "CREATE TABLE public.notes (\n    id integer DEFAULT nextval('notes_id_seq'::regclass) NOT NULL,\n    body text\n);\n\nALTER TABLE ONLY public.notes ADD CONSTRAINT notes_pkey PRIMARY KEY (id);\n",
    );
  });

  it("writes each table's ownership and comment statements right after it, and a view's after the other statements", () => {
    const notes = new Map([
      [relationKey("public", "v"), ["ALTER VIEW public.v OWNER TO app_owner"]],
      [relationKey("public", "t"), ["ALTER TABLE public.t OWNER TO app_owner", "COMMENT ON TABLE public.t IS 'two\nlines'"]],
    ]);
    const sql = schemaSql({ tables: [{ schema: "public", name: "t", columns: [{ name: "id", type: "integer", nullable: true }] }], statements: ["CREATE VIEW public.v AS SELECT 1"], notes });
    expect(sql).toBe(
      "CREATE TABLE public.t (\n    id integer\n);\n\nALTER TABLE public.t OWNER TO app_owner;\n\nCOMMENT ON TABLE public.t IS 'two\nlines';\n\nCREATE VIEW public.v AS SELECT 1;\n\nALTER VIEW public.v OWNER TO app_owner;\n",
    );
  });

  it("keeps the notes of relations whose schema and name join to the same dotted text apart", () => {
    const notes = new Map([[relationKey("public.t", "x"), ["COMMENT ON TABLE \"public.t\".x IS 'not this one'"]]]);
    const sql = schemaSql({ tables: [{ schema: "public", name: "t.x", columns: [] }], statements: ["CREATE VIEW public.v AS SELECT 1"], notes });
    // Not the table's note: it follows the other statements instead of the table.
    expect(sql).toBe('CREATE TABLE public."t.x" (\n\n);\n\nCREATE VIEW public.v AS SELECT 1;\n\nCOMMENT ON TABLE "public.t".x IS \'not this one\';\n');
  });

  it("creates non-public schemas first and quotes names that need it", () => {
    const sql = schemaSql({ tables: [{ schema: "app", name: "User Table", columns: [{ name: "Id", type: "bigint", nullable: false }] }], statements: [] });
    expect(sql).toBe('CREATE SCHEMA app;\n\nCREATE TABLE app."User Table" (\n    "Id" bigint NOT NULL\n);\n');
  });
});

describe("unifiedDiff", () => {
  const labels = { base: "base", changed: "changed" };

  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", labels)).toBe("");
  });

  it("marks removed, added and kept lines in one hunk", () => {
    expect(unifiedDiff("a\nb\nc\n", "a\nc\nd\n", labels)).toBe("--- base\n+++ changed\n@@ -1,3 +1,3 @@\n a\n-b\n c\n+d\n");
  });

  it("writes a changed line as its removal, then its addition", () => {
    expect(unifiedDiff("x\n", "y\n", labels)).toBe("--- base\n+++ changed\n@@ -1,1 +1,1 @@\n-x\n+y\n");
  });

  it("writes an empty side as a zero-length range", () => {
    expect(unifiedDiff("", "x\n", labels)).toBe("--- base\n+++ changed\n@@ -0,0 +1,1 @@\n+x\n");
  });
});

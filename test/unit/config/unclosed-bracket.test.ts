import { describe, expect, it } from "vitest";
import { findUnclosedBracket } from "../../../src/config/unclosed-bracket.js";

const lines = (...text: string[]): string => text.join("\n");

describe("findUnclosedBracket", () => {
  it.each([
    [
      "a brace lost at the end of a line",
      lines("export default {", "  functions: {", "    api: { env: { A: 1 ,", "    },", "  },", "};"),
      // Two brackets open on line 3 and a line closes one at its indentation: the line is right.
      { char: "{", line: 3, column: 10 },
    ],
    [
      "a bracket lost in a list",
      lines("export default {", "  dbSchemas: [", '    "api",', "  },", "};"),
      { char: "[", line: 2, column: 14 },
    ],
    [
      "braces inside strings, templates, comments and a regular expression",
      lines(
        "export default {",
        '  a: "}{", b: \'{\', c: `x ${ {}.toString() } }`,',
        "  // } not code",
        "  /* { */ d: /[{]/.source,",
        "  e: { f: 1,",
        "};",
      ),
      { char: "{", line: 5, column: 6 },
    ],
  ])("finds %s", (_label, source, expected) => {
    expect(findUnclosedBracket(source, 100)).toEqual(expected);
  });

  it.each([
    ["a balanced policy", lines("export default {", "  a: [1, 2],", "  b: (t) =>", "    t", "      ? { x: 1 }", "      : {", "          y: 2,", "        },", "};")],
    ["a closing line indented more than its opening line", lines("const f = (", "  a,", "    ) => a;")],
    ["an unterminated string", lines("export default {", '  a: "x,', "};")],
  ])("finds nothing in %s", (_label, source) => {
    expect(findUnclosedBracket(source, 100)).toBeUndefined();
  });

  it("looks only before the line where the parser stopped", () => {
    const source = lines("const a = {", "  b: 1,", "};", "const c = {", "  d: {", "    e: 1,", "};");
    expect(findUnclosedBracket(source, 5)).toBeUndefined();
    expect(findUnclosedBracket(source, 8)).toEqual({ char: "{", line: 5, column: 6 });
  });
});

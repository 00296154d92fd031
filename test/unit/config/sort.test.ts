import { describe, expect, it } from "vitest";
import { compareCodePoints, sortedEntries } from "../../../src/config/sort.js";

/** A small deterministic generator, so the table is the same on every run. */
function* pseudoRandom(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield state / 2_147_483_648;
  }
}

// Code units that order differently by unit and by code point, and ordinary ones.
const ALPHABET = ["a", "B", "_", "0", "é", "\uFF5E", "\uE000", "\uFFFF", "\u{1F600}", "\u{10000}", "\uD800", "\uDFFF", "z"];

function keysOf(random: Generator<number>, count: number, alphabet: readonly string[]): string[] {
  const keys = new Set<string>();
  while (keys.size < count) {
    const length = 1 + Math.floor((random.next().value as number) * 4);
    let key = "";
    for (let i = 0; i < length; i++) key += alphabet[Math.floor((random.next().value as number) * alphabet.length)] ?? "";
    keys.add(key);
  }
  return [...keys];
}

describe("sortedEntries", () => {
  it("orders keys by code point, as compareCodePoints does, with and without surrogates among them", () => {
    const random = pseudoRandom(29);
    for (const alphabet of [ALPHABET, ALPHABET.filter((c) => !/[\uD800-\uDFFF]/.test(c))]) {
      for (let round = 0; round < 50; round++) {
        const keys = keysOf(random, 2 + Math.floor((random.next().value as number) * 30), alphabet);
        const record = Object.fromEntries(keys.map((key, i) => [key, i]));
        const expected = Object.keys(record).sort(compareCodePoints);
        expect(sortedEntries(record).map(([key]) => key)).toEqual(expected);
        expect(sortedEntries(record).map(([key, value]) => record[key] === value)).not.toContain(false);
      }
    }
  });

  it("puts an astral key after a high BMP one, unlike code-unit order", () => {
    expect(sortedEntries({ "\u{1F600}": 1, "\uFF5E": 2, a: 3 }).map(([key]) => key)).toEqual(["a", "\uFF5E", "\u{1F600}"]);
  });
});

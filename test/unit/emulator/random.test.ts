import { describe, expect, it } from "vitest";
import { IdFactory, createCryptoRandom } from "../../../src/emulator/engine/random.js";

describe("the emulator's cryptographic randomness", () => {
  it("hands out each drawn byte once, across refills of its pool: 1,000 draws of 16 bytes are all different", () => {
    const random = createCryptoRandom();
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(random.bytes(16).toString("hex"));
    expect(seen.size).toBe(1000);
  });

  it("gives bytes the caller owns: changing them changes nothing drawn later", () => {
    const random = createCryptoRandom();
    const first = random.bytes(8);
    first.fill(0);
    const later = [random.bytes(8), random.bytes(8)].map((b) => b.toString("hex"));
    expect(later).not.toContain("0000000000000000");
    expect(later[0]).not.toBe(later[1]);
  });

  it("draws more bytes than its pool holds, and numbers in [0, 1)", () => {
    const random = createCryptoRandom();
    expect(random.bytes(10_000)).toHaveLength(10_000);
    const numbers = Array.from({ length: 2000 }, () => random.next());
    expect(numbers.every((n) => n >= 0 && n < 1)).toBe(true);
    expect(new Set(numbers).size).toBeGreaterThan(1990);
  });

  it("makes well-formed, distinct UUIDs from it", () => {
    const ids = new IdFactory(createCryptoRandom());
    const uuids = Array.from({ length: 500 }, () => ids.uuid());
    expect(uuids.every((u) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u))).toBe(true);
    expect(new Set(uuids).size).toBe(500);
  });
});

/** The first messages of a PostgreSQL connection, as the endpoint-host proxy reads and writes them. */
import { describe, expect, it } from "vitest";
import { fatalError, readFirstMessage, startupMessage } from "../../../src/emulator/postgres/startup-message.js";

const int32 = (...values: number[]): Buffer => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));

describe("readFirstMessage", () => {
  it("round-trips a startup message, keeping every parameter in order", () => {
    const parameters = new Map([["user", "neondb_owner"], ["database", "neondb"], ["application_name", "psql"]]);
    const bytes = startupMessage(parameters);
    expect(readFirstMessage(bytes)).toEqual({ kind: "startup", length: bytes.length, parameters });
  });

  it.each([
    ["an SSL request", int32(8, 80_877_103), { kind: "encryption-request", length: 8 }],
    ["a GSS encryption request", int32(8, 80_877_104), { kind: "encryption-request", length: 8 }],
    ["a cancel request", int32(16, 80_877_102, 42, 7), { kind: "cancel", length: 16 }],
    ["half a message", startupMessage(new Map([["user", "u"]])).subarray(0, 10), { kind: "incomplete" }],
    ["protocol 2", int32(8, 131_072), { kind: "invalid", reason: "protocol version 2.0" }],
    ["a huge length", int32(1_000_000, 196_608), { kind: "invalid", reason: "a first message of 1000000 bytes" }],
  ])("reads %s", (_label, bytes, expected) => {
    expect(readFirstMessage(bytes)).toEqual(expected);
  });
});

describe("fatalError", () => {
  it("is an ErrorResponse with severity FATAL, the SQLSTATE and the message", () => {
    const bytes = fatalError("28000", 'role "x" does not exist');
    expect(bytes.subarray(0, 1).toString()).toBe("E");
    expect(bytes.readInt32BE(1)).toBe(bytes.length - 1);
    expect(bytes.subarray(5).toString().split("\0")).toEqual(["SFATAL", "VFATAL", "C28000", 'Mrole "x" does not exist', "", ""]);
  });
});

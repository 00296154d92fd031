/**
 * The first messages of a PostgreSQL connection, as a proxy in front of the server reads them:
 * the SSL and GSS encryption requests (answered "no"), a cancel request (passed on unchanged), and
 * the startup message, whose `user` and `database` the proxy rewrites. Pure: bytes in, bytes out.
 */

/** Protocol 3.0, the version of every current client. */
const PROTOCOL_3 = 196_608;
const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;
/** A startup message is small; anything larger is not a client speaking the protocol. */
const MAX_STARTUP_BYTES = 10_000;

/** What the first complete message of `buffer` is, or `incomplete` until more bytes arrive. */
export type FirstMessage =
  | { kind: "incomplete" }
  | { kind: "encryption-request"; length: number }
  | { kind: "cancel"; length: number }
  | { kind: "startup"; length: number; parameters: Map<string, string> }
  | { kind: "invalid"; reason: string };

/** Reads the first message of a connection from `buffer`. */
export function readFirstMessage(buffer: Buffer): FirstMessage {
  if (buffer.length < 8) return { kind: "incomplete" };
  const length = buffer.readInt32BE(0);
  if (length < 8 || length > MAX_STARTUP_BYTES) return { kind: "invalid", reason: `a first message of ${length} bytes` };
  if (buffer.length < length) return { kind: "incomplete" };
  const code = buffer.readInt32BE(4);
  if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { kind: "encryption-request", length };
  if (code === CANCEL_REQUEST) return { kind: "cancel", length };
  if (code !== PROTOCOL_3) return { kind: "invalid", reason: `protocol version ${code >> 16}.${code & 0xffff}` };
  const fields = buffer.subarray(8, length - 1).toString("utf8").split("\0");
  const parameters = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) parameters.set(fields[i] ?? "", fields[i + 1] ?? "");
  return { kind: "startup", length, parameters };
}

/** A startup message (protocol 3.0) holding `parameters` in their order. */
export function startupMessage(parameters: ReadonlyMap<string, string>): Buffer {
  const body = Buffer.from(`${[...parameters].flat().join("\0")}\0\0`, "utf8");
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + body.length, 0);
  header.writeInt32BE(PROTOCOL_3, 4);
  return Buffer.concat([header, body]);
}

/** A FATAL error response, which ends the connection attempt with `sqlstate` and `message`. */
export function fatalError(sqlstate: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${sqlstate}\0M${message}\0\0`, "utf8");
  const header = Buffer.alloc(5);
  header.write("E", 0, "latin1");
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

/** Minimal ELF headers for the binary-rule tests: only the fields the rule reads are set. */

/** A 64-byte ELF header: class, data (endianness) and `e_machine`, then `tail` appended. */
export function elfHeader(options: { machine: number; bits?: 32 | 64; endian?: "little" | "big"; tail?: string }): Uint8Array {
  const header = new Uint8Array(64);
  header.set([0x7f, 0x45, 0x4c, 0x46], 0);
  header[4] = options.bits === 32 ? 1 : 2;
  header[5] = options.endian === "big" ? 2 : 1;
  header[6] = 1;
  header[18] = options.machine & 0xff;
  header[19] = options.machine >> 8;
  const tail = new TextEncoder().encode(options.tail ?? "\0libc.so.6\0");
  const out = new Uint8Array(header.length + tail.length);
  out.set(header, 0);
  out.set(tail, header.length);
  return out;
}

/** An AArch64 glibc shared object, as the platform runs. */
export const ARM64_GLIBC = elfHeader({ machine: 183 });
/** An x86-64 shared object (the usual host build). */
export const X86_64 = elfHeader({ machine: 62 });

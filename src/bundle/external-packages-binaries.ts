/**
 * The binary check of staged packages: the platform runs linux/arm64 with glibc, so every
 * shipped `.node` or `.so` file, and every other ELF file, must be a 64-bit little-endian
 * AArch64 ELF that is not linked against musl. Pure: looks at bytes only.
 */

/** ELF `e_machine` of AArch64. */
const EM_AARCH64 = 183;

const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];

/** Names of musl's loader and C library, present in any binary linked against musl. */
const MUSL_MARKERS = [Buffer.from("ld-musl-"), Buffer.from("libc.musl-")];

/** Machine names of common `e_machine` values, for messages. */
const MACHINES: Readonly<Record<number, string>> = { 3: "x86 (32-bit)", 40: "ARM (32-bit)", 62: "x86-64", 183: "AArch64", 243: "RISC-V" };

/** Whether an archive path names a native library by its extension (`x.node`, `libx.so`, `libx.so.1.2`). */
export function isNativeLibraryPath(path: string): boolean {
  return /\.node$/.test(path) || /\.so(?:\.\d+)*$/.test(path);
}

/**
 * Why `bytes` (the file at `path`) cannot run on linux/arm64/glibc, or `null` when it can or is
 * not a binary at all. A `.node`/`.so` file must be an ELF; any ELF file must be AArch64.
 */
export function foreignBinaryIssue(path: string, bytes: Uint8Array): string | null {
  const elf = ELF_MAGIC.every((b, i) => bytes[i] === b);
  if (!elf) return isNativeLibraryPath(path) ? "is not a Linux ELF binary (a macOS or Windows build?)" : null;
  if (bytes.length < 20 || bytes[4] !== 2 || bytes[5] !== 1) return "is not a 64-bit little-endian ELF binary";
  const machine = (bytes[18] ?? 0) | ((bytes[19] ?? 0) << 8);
  if (machine !== EM_AARCH64) return `is built for ${MACHINES[machine] ?? `ELF machine ${machine}`}, not AArch64 (arm64)`;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (MUSL_MARKERS.some((marker) => buffer.includes(marker))) return "is linked against musl, not glibc";
  return null;
}

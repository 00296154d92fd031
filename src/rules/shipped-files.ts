/**
 * Which files `bundler: "none"` never ships: dot-entries
 * (`.env`, `.git/`, `.npmrc`, `node_modules/.cache/`) and private keys and credentials by name
 * (`*.pem`, `*.key`, `id_rsa*`, `id_ed25519*`), which an esbuild bundle never contains either
 * because nothing imports them. Leaf module: no imports.
 */

const CREDENTIAL_NAME = /^(?:id_rsa|id_ed25519)|\.(?:pem|key)$/i;

/**
 * Why an entry of a prebuilt source is excluded from the archive, or `null` when it ships.
 * `name` is the entry's own name (one path segment).
 */
export function excludedEntryReason(name: string): string | null {
  if (name.startsWith(".env")) return "an environment file (.env*) may hold secrets";
  if (name === ".npmrc") return "an npm configuration file may hold registry tokens";
  if (name.startsWith(".")) return "dot-entries are never shipped";
  if (CREDENTIAL_NAME.test(name)) return "a private key or certificate file (*.pem, *.key, id_rsa*, id_ed25519*)";
  return null;
}

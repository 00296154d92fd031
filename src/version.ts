import { readFileSync } from "node:fs";

/** The package version, read once from package.json (same path from `src/` and `dist/`). */
export const LIBRARY_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

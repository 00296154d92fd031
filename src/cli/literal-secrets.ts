/**
 * Function variables named like secrets whose value is written in the policy's own files (a
 * string literal in `svc.ts` or a local module it imports), so it is committed with them. A
 * value read from the environment is not in any file and is never reported. Pure: the caller
 * reads the files.
 */

/** A name that says it holds a secret: a key, token, password, private value or credential. */
const SECRET_NAME = /SECRET|TOKEN|PASSW|PRIVATE|CREDENTIAL|(?:^|_)(?:API_?)?KEY(?:S)?(?:_|$)/i;
/** Shorter values are flags and placeholders more often than secrets. */
const MIN_LENGTH = 8;

/** One finding: the policy path of the variable and the file its value is written in. */
export interface LiteralSecret {
  path: string;
  name: string;
  file: string;
}

/** The files a policy is made of, with their text. */
export interface PolicySource {
  file: string;
  text: string;
}

function writtenIn(value: string, text: string): boolean {
  return [JSON.stringify(value), `'${value}'`, `\`${value}\``].some((literal) => text.includes(literal));
}

/** Each `functions.<slug>.env.<NAME>` named like a secret whose value is a literal of one of `sources`. */
export function findLiteralSecrets(config: unknown, sources: readonly PolicySource[]): LiteralSecret[] {
  const functions = typeof config === "object" && config !== null ? (config as { functions?: unknown }).functions : undefined;
  if (typeof functions !== "object" || functions === null) return [];
  const found: LiteralSecret[] = [];
  for (const [slug, fn] of Object.entries(functions)) {
    const env = (fn as { env?: unknown } | null)?.env;
    if (typeof env !== "object" || env === null) continue;
    for (const [name, value] of Object.entries(env)) {
      if (typeof value !== "string" || value.length < MIN_LENGTH || !SECRET_NAME.test(name) || /PUBLIC/i.test(name)) continue;
      const source = sources.find((s) => writtenIn(value, s.text));
      if (source !== undefined) found.push({ path: `functions.${slug}.env.${name}`, name, file: source.file });
    }
  }
  return found;
}

/**
 * Names that read as the same name: a skeleton in the manner of Unicode's confusable detection
 * (UTS #39): compatibility forms folded (NFKC), each character that looks like a Latin letter or
 * digit replaced by it (Cyrillic `а` → `a`, Greek `Ο` → `O`, `1` and `I` → `l`, `rn` → `m`), and
 * the result decomposed (NFD). Two names with the same skeleton look alike on a screen even when
 * their bytes differ. The table holds the characters that pass for Latin in the scripts names
 * are commonly written in; it is not all of Unicode's list. Leaf module: no imports.
 */

/** Single characters and the Latin prototype they pass for. */
const LOOKS_LIKE: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>, {
  // Cyrillic, small
  "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y", "\u0445": "x",
  "\u0455": "s", "\u0456": "i", "\u0458": "j", "\u04bb": "h", "\u0501": "d", "\u051b": "q", "\u051d": "w",
  "\u04cf": "l",
  // Cyrillic, capital
  "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M", "\u041d": "H", "\u041e": "O",
  "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0425": "X", "\u0423": "Y", "\u0405": "S", "\u0406": "l",
  "\u0408": "J", "\u051a": "Q", "\u051c": "W", "\u04c0": "l",
  // Greek, small
  "\u03b1": "a", "\u03bf": "o", "\u03bd": "v", "\u03c1": "p", "\u03b9": "i", "\u03c5": "u", "\u03ba": "k",
  // Greek, capital
  "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H", "\u0399": "l", "\u039a": "K",
  "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
  // Armenian
  "\u0585": "o", "\u057d": "u", "\u0570": "h", "\u0578": "n",
  // Latin look-alikes of Latin
  "\u0131": "i", "\u0251": "a", "\u0261": "g", "\u026a": "l", "\u1d00": "A",
  I: "l", "1": "l", "|": "l", "0": "O",
}));

/** Letter pairs that pass for one letter. */
const PAIRS: readonly (readonly [string, string])[] = Object.freeze([["rn", "m"], ["vv", "w"]] as const);

/** The skeleton of `name`: equal skeletons read as the same name. */
export function confusableSkeleton(name: string): string {
  let out = "";
  for (const ch of name.normalize("NFKC")) out += LOOKS_LIKE[ch] ?? ch;
  for (const [pair, single] of PAIRS) out = out.split(pair).join(single);
  return out.normalize("NFD");
}

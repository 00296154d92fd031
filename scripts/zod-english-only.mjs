// An esbuild plugin for the two bundles that hold zod (dist/bin/ and dist/vendor/zod.js). zod
// re-exports its message locales (63 in zod 4.6) as a namespace (`z.locales`, `z.core.locales`), so a bundle
// that imports `z` keeps all of them: 368 KB of the 1.7 MB a `svc config apply` compiles when it
// starts. svc-config's messages are its own and in English, and zod itself configures English
// by importing `en.js` directly, so the bundles' locales module exports `en` alone.
import { dirname } from "node:path";

export const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
};

#!/usr/bin/env node
// Thin launcher: checks the Node.js version before loading anything, then runs the bundled CLI
// (dist/bin/, built by `npm run build`).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`svc-config needs Node.js 20.19 or later (found ${process.versions.node}); upgrade Node.js\n`);
  process.exit(1);
}
const { runCli } = await import("../dist/bin/svc.js");
await runCli(process.argv.slice(2));

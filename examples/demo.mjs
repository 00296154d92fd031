#!/usr/bin/env node
// `npm run demo`: starts an embedded emulator of the platform API, then runs
// `svc config plan`, `svc config apply` and `svc config plan` again on examples/basic/svc.ts
// with the real `svc` bin, and shows the three outputs. No account and no network needed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const built = join(root, "dist", "bin", "svc.js");
if (!existsSync(built) || statSync(built).mtimeMs < newestMtime(join(root, "src"))) {
  process.stderr.write("Building svc-config (npm run build)…\n");
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

process.stdout.write(
  "This demo starts a local emulator of the platform (no account, no network), then plans examples/basic/svc.ts,\n" +
    "applies it, and plans again to show the branch now matches the policy.\n",
);

const { startEmulator } = await import(join(root, "dist", "emulator", "index.js"));
const emulator = await startEmulator({ port: 0 });
const env = {
  ...process.env,
  SVC_API_HOST: emulator.apiHost,
  SVC_API_KEY: emulator.apiKey,
  SVC_PROJECT_ID: emulator.projectId,
  SVC_BRANCH_ID: emulator.defaultBranchId,
};
delete env.NO_COLOR;

/** What to try next, with the user's own svc.ts (the same commands the README and docs/cli.md show). */
const NEXT_STEPS = `
Next, with your own svc.ts (in your app, once svc-config is installed as the README's Install section says):
  npx svc config init                                # scaffold svc.ts and an example function
  npx svc config validate                            # check it offline
  npx svc emulator --port 0 --real-databases > .env.emulator &   # a local platform; its SVC_* lines go to .env.emulator
  until grep -qs SVC_CLAIM_API_HOST .env.emulator; do sleep 0.2; done   # wait until it listens
  npx svc config plan --env .env.emulator            # see what would change
  npx svc config apply --env .env.emulator --write-env .env.local   # apply it; DATABASE_URL and function URLs go to .env.local
  kill %1                                            # stop the emulator and its PostgreSQL
--real-databases gives branches real PostgreSQL databases, so the DATABASE_URL that --write-env writes
connects (psql, migration tools); without it branch databases are records only and their URLs never resolve.
See docs/cli.md and docs/policy.md in the package for every command and every svc.ts key.
`;

const steps = [
  ["config", "plan"],
  ["config", "apply", "--update-existing"],
  ["config", "plan"],
];
let status = 0;
try {
  for (const args of steps) {
    process.stdout.write(`\n$ svc ${args.join(" ")}\n`);
    // Asynchronous: the emulator runs in this process and must keep answering.
    const code = await new Promise((resolve) => {
      const child = spawn(process.execPath, [join(root, "bin", "svc.js"), ...args], { cwd: join(root, "examples", "basic"), env, stdio: "inherit" });
      child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 130)));
    });
    if (code !== 0) {
      status = code;
      process.stderr.write(`svc ${args.join(" ")} exited with ${status}\n`);
      break;
    }
  }
} finally {
  await emulator.close();
}
if (status === 0) process.stdout.write(NEXT_STEPS);
process.exit(status);

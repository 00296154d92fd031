import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { startEmulatorProcess, SVC_BIN } from "./bench/sweep/emulator-process.ts";
import { writeSweepPolicy } from "./bench/sweep/generate-policy.ts";
const n = Number(process.argv[2] ?? 1000);
const dir = `/tmp/noop-prof-${n}`;
rmSync(dir, { recursive: true, force: true });
const policy = writeSweepPolicy(`${dir}/policy`, "mix", n);
const emu = await startEmulatorProcess();
const env = { ...process.env, ...emu.env, SVC_FINGERPRINT_KEY: "5eed".repeat(16), CI: "1", NO_COLOR: "1" };
try {
  let t = performance.now();
  let r = spawnSync(process.execPath, [SVC_BIN, "config", "apply", "--yes", "--quiet", "--config", policy], { env, encoding: "utf8" });
  console.log("apply", r.status, ((performance.now() - t) / 1000).toFixed(2), "s", r.stderr.slice(-300));
  for (const prof of [false, true]) {
    mkdirSync(`${dir}/prof`, { recursive: true });
    t = performance.now();
    r = spawnSync(process.execPath, [...(prof ? ["--cpu-prof", "--cpu-prof-dir", `${dir}/prof`] : []), SVC_BIN, "config", "plan", "--quiet", "--config", policy], { env, encoding: "utf8" });
    console.log(prof ? "plan (profiled)" : "plan", r.status, ((performance.now() - t) / 1000).toFixed(2), "s", r.stderr.slice(-300));
  }
} finally { await emu.close(); }

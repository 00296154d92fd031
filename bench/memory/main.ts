/**
 * Large-function memory bench (run by hand, never by the tests). Writes a policy of K functions,
 * each bundling its own module of incompressible text (base64 of random bytes, `--mb` MB a
 * function, so each archive is about as large), starts the sweep's emulator in its own process
 * and runs the built CLI's first `apply` in a fresh process, as a user does, with a cold bundle
 * cache (a new policy directory per run). Prints the CLI's peak RSS, its largest heap in use and
 * array-buffer memory (sampled every 50 ms: archives and request bodies are array buffers), wall
 * time, requests and the load average for each run. It asserts nothing.
 *
 *   npm run build && npx tsx bench/memory/main.ts [--functions 40] [--mb 2.5] [--runs 1] [--no-cache]
 *     [--validate]        run `svc config validate` instead (bundles and fills the cache, sends nothing)
 *     [--heap-prof DIR]   also write the CLI's sampling heap profile (node --heap-prof) into DIR
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SVC_BIN, startEmulatorProcess } from "../sweep/emulator-process.js";

const REPORT_MEMORY = fileURLToPath(new URL("./report-memory.mjs", import.meta.url));

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Writes K functions, each importing a module of `mb` MB of base64 text of its own. */
function writeLargePolicy(root: string, functions: number, mb: number): string {
  const lines = ["export default {", "  functions: {"];
  const textBytes = Math.round(mb * 1_000_000);
  for (let i = 0; i < functions; i++) {
    const slug = `big${String(i).padStart(3, "0")}`;
    const dir = join(root, "functions", slug);
    mkdirSync(dir, { recursive: true });
    const text = randomBytes(Math.ceil((textBytes * 3) / 4)).toString("base64").slice(0, textBytes);
    writeFileSync(join(dir, "blob.ts"), `export const blob = "${text}";\n`);
    writeFileSync(join(dir, "index.ts"), `import { blob } from "./blob.ts";\nexport default (): Response => new Response(String(blob.length));\n`);
    lines.push(`    ${slug}: { name: "Large ${i}", source: "./functions/${slug}" },`);
  }
  lines.push("  },", "};", "");
  writeFileSync(join(root, "svc.ts"), lines.join("\n"));
  return join(root, "svc.ts");
}

async function firstApply(functions: number, mb: number, noCache: boolean, validate: boolean, heapProfDir: string | undefined): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "svc-memory-"));
  const policy = writeLargePolicy(join(work, "policy"), functions, mb);
  const emu = await startEmulatorProcess();
  try {
    const memoryFile = join(work, "memory.json");
    const load = loadavg()[0] ?? 0;
    const from = emu.requests.length;
    const started = performance.now();
    const nodeFlags = heapProfDir === undefined ? [] : ["--heap-prof", `--heap-prof-dir=${heapProfDir}`];
    const args = [...(validate ? ["config", "validate"] : ["config", "apply", "--yes", "--quiet"]), "--config", policy, ...(noCache ? ["--no-cache"] : [])];
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [...nodeFlags, "--import", REPORT_MEMORY, SVC_BIN, ...args], {
        env: { ...process.env, ...emu.env, SVC_BENCH_MEMORY_FILE: memoryFile, CI: "1", NO_COLOR: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("exit", (exit) => {
        if (exit !== 0) process.stderr.write(`  svc ${args.join(" ")} exited ${String(exit)}:\n${stderr.slice(-2000)}\n`);
        resolve(exit ?? 1);
      });
    });
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, 200)); // the emulator's last log lines
    const memory = JSON.parse(readFileSync(memoryFile, "utf8")) as { maxRSS: number; heapUsed: number; arrayBuffers: number };
    const mbOf = (bytes: number): string => (bytes / 1_048_576).toFixed(0).padStart(4);
    const requests = emu.requests.length - from;
    process.stdout.write(`  K=${functions} × ${mb} MB ${validate ? "validate" : "first apply"}${noCache ? " --no-cache" : ""}  ${(ms / 1000).toFixed(2).padStart(6)} s  ${String(requests).padStart(4)} req  peak ${mbOf(memory.maxRSS)} MB  heap ${mbOf(memory.heapUsed)} MB  buffers ${mbOf(memory.arrayBuffers)} MB  load ${load.toFixed(2)}${code === 0 ? "" : `  EXIT ${code}`}\n`);
  } finally {
    await emu.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const functions = Number(option("--functions") ?? 40);
const mb = Number(option("--mb") ?? 2.5);
const runs = Number(option("--runs") ?? 1);
const heapProfDir = option("--heap-prof");
const noCache = process.argv.includes("--no-cache");
const validate = process.argv.includes("--validate");
for (let run = 0; run < runs; run++) await firstApply(functions, mb, noCache, validate, heapProfDir);

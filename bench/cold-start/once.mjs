// One cold-start measurement in a fresh process (spawned by cold-start.ts): imports the built
// `svc-config/v1`, then, given a policy path, loads it once with `loadConfigFromFile`. Prints one
// JSON line: importMs, loadMs (or null) and sinceStartMs (process start to the end, as Node counts).
// Plain JavaScript, run by node itself, so no loader is measured.
const [distUrl, policy] = process.argv.slice(2);
const importStart = performance.now();
const v1 = await import(distUrl);
const importMs = performance.now() - importStart;
let loadMs = null;
if (policy) {
  const loadStart = performance.now();
  await v1.loadConfigFromFile({ path: policy });
  loadMs = performance.now() - loadStart;
}
process.stdout.write(`${JSON.stringify({ importMs, loadMs, sinceStartMs: performance.now() })}\n`);

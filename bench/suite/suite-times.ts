/**
 * Where the test suite's time goes (`npm run bench:suite`; run by hand, never by the tests): reads
 * a vitest JSON report (`.vitest-report.json`, which `bash .ci/run` writes, or the file given) and
 * prints one row per test file, slowest first: the file's span in the report, the sum of its
 * tests' durations, its test count and the running share of all files' spans; above them the
 * run's wall time (start to the last file's end), which also holds what no span covers: starting
 * workers, importing modules, `beforeAll` hooks. Asserts nothing.
 *
 *   npm run bench:suite [-- path/to/report.json] [-- --top 40]
 */
import { readFileSync } from "node:fs";

interface ReportFile {
  name: string;
  startTime: number;
  endTime: number;
  assertionResults: { duration?: number | null; status: string }[];
}

interface Report {
  startTime: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: ReportFile[];
}

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 40;
const path = args.find((a, i) => !a.startsWith("--") && (topAt < 0 || i !== topAt + 1)) ?? ".vitest-report.json";
const report = JSON.parse(readFileSync(path, "utf8")) as Report;

const rows = report.testResults
  .map((file) => ({
    file: file.name.slice(file.name.indexOf("/test/") + 1),
    wallS: (file.endTime - file.startTime) / 1000,
    testsS: file.assertionResults.reduce((sum, t) => sum + (t.duration ?? 0), 0) / 1000,
    tests: file.assertionResults.length,
  }))
  .sort((a, b) => b.wallS - a.wallS);
const filesS = rows.reduce((sum, r) => sum + r.wallS, 0);
const lastEnd = Math.max(...report.testResults.map((f) => f.endTime));
const runS = (lastEnd - report.startTime) / 1000;
const e2eS = rows.filter((r) => r.file.startsWith("test/e2e/")).reduce((sum, r) => sum + r.wallS, 0);

console.log(`${path}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${rows.length} files`);
console.log(`run ${runS.toFixed(0)} s from start to the last file's end; files ${filesS.toFixed(0)} s summed (e2e ${((e2eS / filesS) * 100).toFixed(0)}%)`);
console.log("  file s  tests s  tests  share  file");
let running = 0;
for (const row of rows.slice(0, top)) {
  running += row.wallS;
  console.log(`${row.wallS.toFixed(1).padStart(8)} ${row.testsS.toFixed(1).padStart(8)} ${String(row.tests).padStart(6)} ${`${((running / filesS) * 100).toFixed(0)}%`.padStart(6)}  ${row.file}`);
}
if (rows.length > top) console.log(`${(filesS - running).toFixed(1).padStart(8)} in the other ${rows.length - top} files`);

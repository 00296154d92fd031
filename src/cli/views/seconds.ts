/** Seconds with one decimal, e.g. `48.2s`: how every view and the progress display show a duration. */
export function formatSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}

/**
 * Archive bytes in flight for uploads. A plan holds its archives by reference (`archive-ref.ts`);
 * an upload reads its archive's bytes, checked against the planned digest, only when it is about
 * to be sent, and lets them go when its request settles. Every deployment of a first apply is
 * ready at once, so without a bound each would read its archive before waiting for a request slot:
 * at most {@link ARCHIVE_READ_BUDGET_BYTES} of archives are read at once in a process (a single
 * larger archive still goes, alone), the rest wait in the order they asked.
 */
import { type ArchiveRef, readArchiveBytes } from "./archive-ref.js";
import { ByteBudget } from "./byte-budget.js";

/**
 * Archive bytes read for uploads at once in a process: 16 MiB (each also has its request body,
 * a copy, while it is sent, so about twice that is held). Archives of a few kilobytes never wait.
 * 40 first deployments of 2.5 MB archives peaked at 83–90 MB of array buffers with 8 or 16 MiB
 * (the bundling before them peaks there too), 116–124 MB with 32 MiB.
 */
export const ARCHIVE_READ_BUDGET_BYTES = 16 * 1024 * 1024;

const uploads = new ByteBudget(ARCHIVE_READ_BUDGET_BYTES);

/**
 * Reads `archive`'s planned bytes under the process's budget and runs `send` with them; the bytes
 * (and whatever `send` builds from them, such as a request body) are released when it settles.
 * Nothing is sent when the bytes cannot be read as planned.
 * @throws ArchiveChangedError naming the function then (see `readArchiveBytes`).
 */
export function withArchiveBytes<T>(archive: ArchiveRef, send: (zip: Uint8Array) => Promise<T>, budget: ByteBudget = uploads): Promise<T> {
  return budget.hold(archive.zipBytes, async () => send(await readArchiveBytes(archive)));
}

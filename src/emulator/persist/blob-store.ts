/**
 * Content-addressed blobs: object bodies and function archives, stored by their
 * SHA-256. In memory by default; with a data dir, `blobs/<sha256>` is written and fsynced before
 * any state that references it, so names, keys and slugs never become file-system paths.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, stat } from "node:fs/promises";
import { join } from "node:path";

/** Where blobs live. */
export interface BlobStore {
  /**
   * Stores `bytes` (durably for a disk store); resolves with their hex SHA-256. `sha256` is that
   * digest when the caller has just computed it of these same bytes in this process (the
   * deployment route's inspection does), so they are not hashed a second time; otherwise it is
   * computed here.
   */
  put(bytes: Uint8Array, sha256?: string): Promise<string>;
  /** The bytes of a blob, or undefined when absent. */
  get(sha256: string): Promise<Uint8Array | undefined>;
  /** Whether a blob exists. */
  has(sha256: string): Promise<boolean>;
}

/** Hex SHA-256 of bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Blobs kept in memory (state dies with the process). */
export class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, Uint8Array>();

  put(bytes: Uint8Array, sha256?: string): Promise<string> {
    const sha = sha256 ?? sha256Hex(bytes);
    // A copy: `bytes` may be a view of a larger buffer (a request's whole body) that is not kept.
    this.blobs.set(sha, Uint8Array.from(bytes));
    return Promise.resolve(sha);
  }

  get(sha256: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.blobs.get(sha256));
  }

  has(sha256: string): Promise<boolean> {
    return Promise.resolve(this.blobs.has(sha256));
  }
}

/** Blobs under `DIR/blobs/`: written to a temp file, fsynced, renamed. */
export class DiskBlobStore implements BlobStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, "blobs");
  }

  async put(bytes: Uint8Array, sha256?: string): Promise<string> {
    // The digest names a file: anything but 64 hex digits is never taken from the caller.
    const sha = sha256 !== undefined && HEX64.test(sha256) ? sha256 : sha256Hex(bytes);
    const path = join(this.dir, sha);
    if (await this.has(sha)) return sha;
    await mkdir(this.dir, { recursive: true });
    // A unique temp name: two uploads of the same bytes may race; both renames land the same content.
    const tmp = `${path}.${randomUUID()}.tmp`;
    const handle = await open(tmp, "w", 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    return sha;
  }

  async get(sha256: string): Promise<Uint8Array | undefined> {
    if (!HEX64.test(sha256)) return undefined;
    try {
      return await readFile(join(this.dir, sha256));
    } catch {
      return undefined;
    }
  }

  async has(sha256: string): Promise<boolean> {
    if (!HEX64.test(sha256)) return false;
    try {
      await stat(join(this.dir, sha256));
      return true;
    } catch {
      return false;
    }
  }
}

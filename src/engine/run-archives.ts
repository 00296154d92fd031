/**
 * A run bundles each function once: the archives an operation builds for a policy
 * object are remembered with it, so the next operation on the same object in this process (the
 * CLI's `apply`: a plan, then `applyPlan` of what it showed) reuses them instead of bundling
 * again. Each is reused only while every file it was built from still hashes the same, as with
 * the cache directory; the memory goes when the policy object does.
 */
import type { ArchiveMemory } from "../bundle/archive-cache.js";

const memories = new WeakMap<object, ArchiveMemory>();

/** The archives remembered for `config`, as the `memory` input of a plan (none when it is not an object). */
export function withMemory(config: unknown): { memory?: ArchiveMemory } {
  if (typeof config !== "object" || config === null) return {};
  let memory = memories.get(config);
  if (memory === undefined) {
    memory = new Map();
    memories.set(config, memory);
  }
  return { memory };
}

/**
 * The digests of a plan's internal changes (`result-digests.ts` keeps them beside a result). Each
 * change is hashed in the canonical form saved plans have always committed to: the change and its
 * operation, the operation holding the planned values its kind's `digests` view names.
 */
import { sha256Of } from "../diff/canonical-json.js";
import { KIND_DIGESTS } from "../kinds/modules.js";
import { nameRecord } from "../model/own-record.js";
import type { OpType, OperationChange, PlannedChange } from "../model/planned-change.js";
import type { ChangeDigests } from "./result-digests.js";

/** The operation as the digest holds it: with the planned values its view names, if any. */
function digestedOp<T extends OpType>(type: T, { op, planned }: OperationChange<T>): object {
  const view = KIND_DIGESTS[type];
  return view === undefined ? op : { ...op, ...view(planned) };
}

function digested(planned: PlannedChange): object {
  return { change: planned.change, op: digestedOp(planned.op.type, planned) };
}

/** The digests of each change list this process hashed: a plan's list is not changed once planned. */
const computed = new WeakMap<readonly PlannedChange[], ChangeDigests>();

/**
 * The digests of `changes` (ops and their digested planned values included, so an edited env
 * value shows), computed once per list: a saved plan's check, its dry-run view and the result
 * after execution hash the same list.
 */
export function digestsOf(changes: readonly PlannedChange[]): ChangeDigests {
  let digests = computed.get(changes);
  if (digests === undefined) {
    digests = {
      changesDigest: sha256Of(changes.map(digested)),
      changeDigests: nameRecord(changes.map((c) => [c.change.id, sha256Of(digested(c))] as const)),
    };
    computed.set(changes, digests);
  }
  return digests;
}

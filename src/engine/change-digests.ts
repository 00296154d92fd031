/**
 * The digests of a plan's internal changes (`result-digests.ts` keeps them beside a result). Each
 * change is hashed in the canonical form saved plans have always committed to: the change and its
 * operation, the operation holding the planned values its kind's `digests` view names.
 */
import { canonicalJson, sha256OfText } from "../diff/canonical-json.js";
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
/** The canonical JSON of the first changes of a list, as far as {@link digestInSlices} got. */
const pieces = new WeakMap<readonly PlannedChange[], string[]>();

/** The canonical JSON of the first changes of `changes` computed so far (none to start with). */
function piecesSoFar(changes: readonly PlannedChange[]): string[] {
  let json = pieces.get(changes);
  if (json === undefined) {
    json = [];
    pieces.set(changes, json);
  }
  return json;
}

/** The canonical JSON of every change of `changes`, each computed once. */
function piecesOf(changes: readonly PlannedChange[]): string[] {
  const json = piecesSoFar(changes);
  for (let i = json.length; i < changes.length; i++) json.push(canonicalJson(digested(changes[i] as PlannedChange)));
  return json;
}

/**
 * The digests of `changes` (ops and their digested planned values included, so an edited env
 * value shows), computed once per list: a saved plan's check, its dry-run view and the result
 * after execution hash the same list. The list's digest is the SHA-256 of the canonical JSON of
 * the whole list, `[` + each change's canonical JSON joined by `,` + `]`, so each change's JSON is
 * made once and serves both.
 */
export function digestsOf(changes: readonly PlannedChange[]): ChangeDigests {
  let digests = computed.get(changes);
  if (digests === undefined) {
    const json = piecesOf(changes);
    digests = {
      changesDigest: sha256OfText(["[", ...json.map((piece, i) => (i === 0 ? piece : `,${piece}`)), "]"]),
      changeDigests: nameRecord(changes.map((c, i) => [c.change.id, sha256OfText([json[i] as string])] as const)),
    };
    computed.set(changes, digests);
    pieces.delete(changes);
  }
  return digests;
}

/**
 * Computes the digests of `changes` while the event loop is otherwise idle: one change's canonical
 * JSON per check phase, so no turn is held for more than one change (the requests being sent and
 * answered meanwhile, an in-process platform's included, are not held up), then the digests.
 * `digestsOf` later takes what is done and finishes the rest itself. A failure is left to it: it
 * computes the same again and throws.
 */
export function digestInSlices(changes: readonly PlannedChange[]): void {
  const step = (): void => {
    if (computed.has(changes)) return;
    try {
      const json = piecesSoFar(changes);
      if (json.length < changes.length) {
        json.push(canonicalJson(digested(changes[json.length] as PlannedChange)));
        setImmediate(step);
      } else digestsOf(changes);
    } catch {
      pieces.delete(changes); // digestsOf computes from the start and reports the error
    }
  };
  setImmediate(step);
}

/**
 * A kind no source file knows: the registry test puts its module first in the registry (mocked)
 * and sees every stage take it in. Its diff plans `widget.<name>` for each declared bucket and its
 * prune reports each live bucket as an unmanaged widget. Its read needs the branch's custom domains
 * when the policy declares a bucket, and keeps their hostnames as its slice (`live.kinds.widget`).
 */
import { makeChange } from "../../../src/diff/change-builder.js";
import type { KindDiffer } from "../../../src/diff/plan-types.js";
import type { KindRead } from "../../../src/inspect/read-live-state.js";
import type { ResourceKind } from "../../../src/kinds/index.js";
import type { LiveState } from "../../../src/model/live-state.js";

// The types know only the kinds of src/ (their folders declare them); the mocked registry knows this one at run time.
export const WIDGET = "widget" as ResourceKind;

/** The widget's module as the registry holds it: a named kind needing the `widgets` feature. */
export const widgetModule = {
  name: WIDGET,
  scope: "named",
  feature: "widgets",
  handlers: {},
  seed: () => ({}),
  diff: (desired, _live, _options, sink) => {
    for (const b of desired.buckets) {
      sink.changes.push(
        makeChange({
          address: `widget.${b.name}`, kind: WIDGET, action: "create", class: "additive", fields: ["*"], before: null, after: { size: 2 },
          reason: `widget ${b.name} is declared`, op: { type: "bucket-create", name: b.name }, planned: { access: "private" },
        }),
      );
    }
  },
  prune: (_desired, live, _options, sink) => {
    for (const b of live.buckets ?? []) sink.unmanaged.push({ address: `widget.${b.name}`, kind: WIDGET, identifier: b.name, reason: "not declared" });
  },
  declares: (desired) => desired.buckets.length > 0,
  read: {
    needs: (desired) => (desired.buckets.length > 0 ? { customDomains: true } : {}),
    slice: ({ customDomains }) => (customDomains === undefined ? {} : { kinds: { [WIDGET]: customDomains.map((d) => d.domain) } }),
  },
} as const satisfies KindDiffer & { scope: "named"; feature: string; handlers: object; seed(): object; read: KindRead<Partial<LiveState>> };

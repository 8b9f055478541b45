import { describeChanges } from "@/lib/review/audit-changes";
import type { AuditEntry } from "@/lib/review/review.schema";

const show = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

/** The append-only review log for what is on the page: who, what, what changed, when. The raw
 * before → after (with internal ids) is folded away and wraps, so no entry widens the page. */
export function AuditLog({ entries }: { entries: AuditEntry[] }) {
  if (!entries.length) return <p className="text-sm text-slate-500">No decisions yet.</p>;
  return (
    <ol className="min-w-0 divide-y divide-slate-100 text-sm" data-testid="audit-log">
      {entries.map((e) => {
        const changes = describeChanges(e.before, e.after);
        return (
          <li key={e.id} className="min-w-0 py-2" data-testid="audit-entry">
            <p>
              <b>{e.decision.toLowerCase()}</b>{" "}
              <span className="text-slate-500">{e.targetType.toLowerCase().replaceAll("_", " ")}</span> by{" "}
              {e.actor}
              <time className="ml-2 text-xs text-slate-500" dateTime={e.createdAt}>
                {new Date(e.createdAt).toLocaleString("en-GB")}
              </time>
            </p>
            {e.reason ? <p className="break-words text-slate-700">“{e.reason}”</p> : null}
            {changes.length ? (
              <ul className="mt-0.5 text-xs text-slate-600" data-testid="audit-changes">
                {changes.map((c) => (
                  <li key={c.field} className="break-words">
                    <span className="text-slate-500">{c.field}:</span>{" "}
                    {c.after === null ? c.before : `${c.before} → ${c.after}`}
                  </li>
                ))}
              </ul>
            ) : null}
            <details className="mt-0.5 text-xs text-slate-500">
              <summary className="cursor-pointer select-none">raw</summary>
              <p className="font-mono break-all whitespace-pre-wrap">
                {show(e.before)} → {show(e.after)}
              </p>
            </details>
          </li>
        );
      })}
    </ol>
  );
}

import type { AuditEntry } from "@/lib/review/review.schema";

const show = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

/** The append-only review log for what is on the page: who, what, before → after, when. */
export function AuditLog({ entries }: { entries: AuditEntry[] }) {
  if (!entries.length) return <p className="text-sm text-slate-500">No decisions yet.</p>;
  return (
    <ol className="divide-y divide-slate-100 text-sm" data-testid="audit-log">
      {entries.map((e) => (
        <li key={e.id} className="py-2" data-testid="audit-entry">
          <p>
            <b>{e.decision.toLowerCase()}</b>{" "}
            <span className="text-slate-500">{e.targetType.toLowerCase().replaceAll("_", " ")}</span> by{" "}
            {e.actor}
            <time className="ml-2 text-xs text-slate-500" dateTime={e.createdAt}>
              {new Date(e.createdAt).toLocaleString("en-GB")}
            </time>
          </p>
          {e.reason ? <p className="text-slate-700">“{e.reason}”</p> : null}
          <p className="font-mono text-xs text-slate-500">
            {show(e.before)} → {show(e.after)}
          </p>
        </li>
      ))}
    </ol>
  );
}

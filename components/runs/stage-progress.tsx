import type { StageProgressView } from "@/lib/pipeline/run-view.schema";

const LABELS: Record<string, string> = {
  judge: "Stateful judge",
  topic: "Topic",
  select: "Selection",
  state: "State space",
  state_code: "State code",
  operations: "Operations",
  methods: "Methods",
  assemble: "Assemble + check",
  test_state: "Test state",
  quality: "Quality check",
};

/** One bar per stage: done (green), failed (red), running (blue), the rest pending. */
export function StageProgress({ stages }: { stages: StageProgressView[] }) {
  if (stages.length === 0) return <p className="text-sm text-slate-500">No steps yet.</p>;
  return (
    <ul className="space-y-2" data-testid="stage-progress">
      {stages.map((s) => {
        const pct = (n: number) => `${(100 * n) / Math.max(1, s.total)}%`;
        return (
          <li
            key={s.stage}
            data-testid={`stage-${s.stage}`}
            className="grid grid-cols-[10rem_1fr_9rem] items-center gap-3 text-sm"
          >
            <span className="text-slate-700">{LABELS[s.stage] ?? s.stage}</span>
            <div
              className="flex h-3 overflow-hidden rounded bg-slate-100"
              role="progressbar"
              aria-label={`${LABELS[s.stage] ?? s.stage} progress`}
              aria-valuemin={0}
              aria-valuemax={s.total}
              aria-valuenow={s.succeeded + s.failed + s.cancelled}
            >
              <div className="bg-emerald-500" style={{ width: pct(s.succeeded) }} />
              <div className="bg-rose-500" style={{ width: pct(s.failed) }} />
              <div className="bg-slate-400" style={{ width: pct(s.cancelled) }} />
              <div className="animate-pulse bg-sky-400" style={{ width: pct(s.running) }} />
            </div>
            <span className="tabular-nums text-slate-500">
              {s.succeeded}/{s.total} done{s.failed ? ` · ${s.failed} failed` : ""}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

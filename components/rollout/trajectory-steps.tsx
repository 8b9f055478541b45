import type { TrajectoryStep } from "@/lib/rollout/rollout.schema";

type Diff = Extract<TrajectoryStep, { type: "tool_call" }>["diff"];
const path = (p: (string | number)[]) => p.map(String).join(".");
const show = (v: unknown) => JSON.stringify(v);

function DiffList({ diff }: { diff: Diff }) {
  const lines = [
    ...diff.changed.map((c) => ({
      key: `c${path(c.path)}`,
      text: `~ ${path(c.path)}: ${show(c.old)} → ${show(c.new)}`,
      tone: "text-amber-800",
    })),
    ...diff.added.map((a) => ({
      key: `a${path(a.path)}`,
      text: `+ ${path(a.path)}: ${show(a.value)}`,
      tone: "text-emerald-800",
    })),
    ...diff.removed.map((r) => ({
      key: `r${path(r.path)}`,
      text: `- ${path(r.path)}: ${show(r.value)}`,
      tone: "text-rose-800",
    })),
  ];
  if (lines.length === 0) return <p className="text-xs text-slate-400">no state change</p>;
  return (
    <ul className="font-mono text-xs" data-testid="state-diff">
      {lines.map((l) => (
        <li key={l.key} className={`${l.tone} break-all`}>
          {l.text}
        </li>
      ))}
    </ul>
  );
}

/** One row per step: the tool call with its arguments, the observation and the state diff; or a message. */
export function TrajectorySteps({ steps }: { steps: TrajectoryStep[] }) {
  return (
    <ol className="space-y-3" data-testid="trajectory-steps">
      {steps.map((s) => (
        <li key={s.index} className="rounded border border-slate-200 p-3 text-sm">
          {s.type === "tool_call" ? (
            <>
              <p className="font-medium">
                {s.index + 1}. <code>{s.name}</code>
                {s.errorKind ? (
                  <span className="ml-2 rounded bg-rose-50 px-1.5 text-xs text-rose-700">
                    {s.errorKind.replace("_", " ")}
                  </span>
                ) : null}
              </p>
              <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {s.arguments ? JSON.stringify(s.arguments, null, 2) : s.rawArguments}
              </pre>
              <p className="mt-2 text-xs font-medium text-slate-500">Observation</p>
              <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(s.observation, null, 2)}
              </pre>
              <p className="mt-2 text-xs font-medium text-slate-500">State diff</p>
              <DiffList diff={s.diff} />
            </>
          ) : (
            <>
              <p className="font-medium">
                {s.index + 1}. Agent: <span className="font-normal">{s.content || <em>(empty)</em>}</span>
              </p>
              {s.userReply !== null ? <p className="mt-1 text-slate-600">User: {s.userReply}</p> : null}
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

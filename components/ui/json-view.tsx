type Path = (string | number)[];
export type DiffLike = {
  added: { path: Path; value: unknown }[];
  removed: { path: Path; value: unknown }[];
  changed: { path: Path; old: unknown; new: unknown }[];
};

const show = (v: unknown) => (v === undefined ? "—" : JSON.stringify(v));
const pathLabel = (p: Path) => p.map((k) => (typeof k === "number" ? `[${k}]` : k)).join(".");

export function JsonView({
  value,
  maxHeight = "16rem",
  testId,
}: {
  value: unknown;
  maxHeight?: string;
  testId?: string;
}) {
  return (
    <pre
      data-testid={testId}
      style={{ maxHeight }}
      className="overflow-auto rounded bg-slate-900 p-3 font-mono text-xs leading-5 text-slate-100"
    >
      {JSON.stringify(value, null, 2) ?? "undefined"}
    </pre>
  );
}

/** A state diff as one line per changed leaf: + added, − removed, ~ changed (old → new). */
export function StateDiffView({ diff, testId }: { diff: DiffLike | null | undefined; testId?: string }) {
  const rows = diff
    ? [
        ...diff.changed.map((c) => ({
          sign: "~",
          path: c.path,
          text: `${show(c.old)} → ${show(c.new)}`,
          tone: "text-amber-700",
        })),
        ...diff.added.map((c) => ({
          sign: "+",
          path: c.path,
          text: show(c.value),
          tone: "text-emerald-700",
        })),
        ...diff.removed.map((c) => ({ sign: "−", path: c.path, text: show(c.value), tone: "text-rose-700" })),
      ]
    : [];
  if (!rows.length)
    return (
      <p data-testid={testId} className="text-xs text-slate-500">
        No state change.
      </p>
    );
  return (
    <ul data-testid={testId} className="space-y-0.5 font-mono text-xs">
      {rows.map((r, i) => (
        <li key={i} className={r.tone}>
          {r.sign} {pathLabel(r.path)}: <span className="break-all">{r.text}</span>
        </li>
      ))}
    </ul>
  );
}

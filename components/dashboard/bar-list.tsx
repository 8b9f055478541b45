import Link from "next/link";

/** Horizontal bars, widths relative to the largest value. Plain HTML: readable without JS. */
export function BarList({ rows }: { rows: { label: string; value: number; href?: string }[] }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <ul className="space-y-2 text-sm">
      {rows.map((row) => (
        <li key={row.label} className="grid grid-cols-[8rem_1fr_3rem] items-center gap-3">
          {row.href ? (
            <Link href={row.href} className="truncate text-indigo-700 hover:underline">
              {row.label}
            </Link>
          ) : (
            <span className="truncate">{row.label}</span>
          )}
          <div className="h-2 rounded bg-slate-100">
            <div className="h-2 rounded bg-indigo-500" style={{ width: `${(row.value / max) * 100}%` }} />
          </div>
          <span className="text-right tabular-nums text-slate-600">{row.value}</span>
        </li>
      ))}
    </ul>
  );
}

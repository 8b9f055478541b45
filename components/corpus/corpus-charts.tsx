"use client";
/**
 * The corpus map's charts (recharts). Every series is aggregated on the server to a dozen rows at
 * most, so a 10,000-environment corpus draws the same few bars as a small one.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CountRow } from "@/lib/corpus/splits";

// Theme variables, so the charts follow the dark theme (app/globals.css).
const INDIGO = "var(--color-indigo-600)";
const GRID = "var(--color-slate-200)";

export function CountBarChart({
  rows,
  testId,
  unit,
  layout = "columns",
}: {
  rows: CountRow[];
  testId: string;
  unit: string;
  layout?: "columns" | "rows";
}) {
  if (!rows.some((r) => r.count > 0))
    return (
      <p className="text-sm text-slate-500" data-testid={testId}>
        Nothing to show yet.
      </p>
    );
  const height = layout === "rows" ? Math.max(120, rows.length * 28 + 30) : 200;
  return (
    <figure data-testid={testId} aria-label={rows.map((r) => `${r.label}: ${r.count} ${unit}`).join("; ")}>
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 400, height }}>
        {layout === "rows" ? (
          <BarChart data={rows} layout="vertical" margin={{ left: 8, right: 16, top: 4, bottom: 4 }}>
            <CartesianGrid horizontal={false} stroke={GRID} />
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="label" width={120} tick={{ fontSize: 11 }} />
            <Tooltip formatter={(v) => [`${String(v)} ${unit}`, ""]} isAnimationActive={false} />
            <Bar dataKey="count" fill={INDIGO} isAnimationActive={false} />
          </BarChart>
        ) : (
          <BarChart data={rows} margin={{ left: 0, right: 8, top: 4, bottom: 4 }}>
            <CartesianGrid vertical={false} stroke={GRID} />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
            <Tooltip formatter={(v) => [`${String(v)} ${unit}`, ""]} isAnimationActive={false} />
            <Bar dataKey="count" fill={INDIGO} isAnimationActive={false} />
          </BarChart>
        )}
      </ResponsiveContainer>
    </figure>
  );
}

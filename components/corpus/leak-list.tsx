import Link from "next/link";
import type { LeaksView } from "@/lib/corpus/corpus.schema";

/** Scenarios whose task states a gold argument, each with the values it gives away. */
export function LeakList({ leaks }: { leaks: LeaksView }) {
  if (!leaks.total)
    return (
      <p className="text-sm text-slate-500">
        No task states a gold argument ({leaks.scanned} scenarios checked).
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="leak-list">
      {leaks.rows.map((r) => (
        <li key={r.scenarioId} className="py-2">
          <Link href={`/scenarios/${r.scenarioId}`} className="text-indigo-700 underline">
            {r.environmentSlug} · {r.externalId}
          </Link>
          <p className="mt-0.5 line-clamp-2 text-slate-600">{r.task}</p>
          <p className="mt-0.5 text-xs text-rose-700">
            {r.leaks.map((l) => `${l.call}.${l.path} = “${l.value}”`).join(" · ")}
          </p>
        </li>
      ))}
    </ul>
  );
}

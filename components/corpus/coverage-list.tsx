import Link from "next/link";
import type { CoverageView } from "@/lib/corpus/corpus.schema";

/** The environments with the most tools no proven scenario calls ("untested code"). */
export function CoverageList({ coverage }: { coverage: CoverageView }) {
  if (!coverage.leastCovered.length)
    return <p className="text-sm text-slate-500">Every tool is called on a proven gold path.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="untested-tools">
      {coverage.leastCovered.map((e) => (
        <li key={e.environmentId} className="py-1.5">
          <Link href={`/environments/${e.environmentId}`} className="text-indigo-700 underline">
            {e.slug}
          </Link>{" "}
          <span className="text-slate-500">
            {e.untested.length} of {e.tools} untested:
          </span>{" "}
          <span className="font-mono text-xs">{e.untested.join(", ")}</span>
        </li>
      ))}
    </ul>
  );
}

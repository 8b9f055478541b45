import { z } from "zod";
import { StatusBadge } from "@/components/ui/badge";
import {
  ProofReasonSchema,
  SensitivityPartSchema,
  GoldPartSchema,
  NoopPartSchema,
} from "@/lib/scenarios/scenario.schema";

const verdict = (r: unknown) => {
  const parsed = z.union([z.object({ passed: z.boolean() }), z.object({ error: z.string() })]).safeParse(r);
  if (!parsed.success) return "—";
  return "passed" in parsed.data ? (parsed.data.passed ? "True" : "False") : `error: ${parsed.data.error}`;
};

type Proof =
  | {
      status: string;
      noop: unknown;
      gold: unknown;
      sensitivity: unknown;
      createdAt: Date;
      environmentVersionId: string;
    }
  | undefined;

/** Proof status, the reasons a scenario is in the review queue, and the per-check evidence. */
export function ProofPanel({
  status,
  reasons,
  proof,
  items,
}: {
  status: string;
  reasons: unknown;
  proof: Proof;
  items: string[];
}) {
  const list = z.array(ProofReasonSchema).catch([]).parse(reasons);
  const noop = NoopPartSchema.safeParse(proof?.noop);
  const gold = GoldPartSchema.safeParse(proof?.gold);
  const sens = SensitivityPartSchema.safeParse(proof?.sensitivity);
  return (
    <div className="space-y-3 text-sm" data-testid="proof-panel">
      <div className="flex items-center gap-2">
        <span>Proof:</span> <StatusBadge status={status} />
        {proof ? (
          <span className="text-xs text-slate-500">
            run {proof.createdAt.toISOString().slice(0, 16).replace("T", " ")} · code version{" "}
            {proof.environmentVersionId.slice(-6)} · gold from{" "}
            {gold.success ? (gold.data.source ?? "none") : "—"}
          </span>
        ) : (
          <span className="text-xs text-slate-500">not run yet</span>
        )}
      </div>
      {list.length ? (
        <ul className="list-disc space-y-1 pl-5 text-rose-800" data-testid="proof-reasons">
          {list.map((r, i) => (
            <li key={i}>
              <code className="text-xs">{r.code}</code> {r.message}
            </li>
          ))}
        </ul>
      ) : null}
      {gold.success && gold.data.error ? <p className="text-rose-700">{gold.data.error}</p> : null}
      {proof ? (
        <table className="w-full text-left text-xs">
          <thead className="uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-1 pr-3">Check</th>
              <th className="pr-3">No-op (initial)</th>
              <th className="pr-3">After gold</th>
              <th>Flips</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <tr key={i} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-3">{item}</td>
                <td className="pr-3">{verdict(noop.success ? noop.data.results[i] : undefined)}</td>
                <td className="pr-3">{verdict(gold.success ? gold.data.results[i] : undefined)}</td>
                <td>
                  {sens.success && sens.data.checks[i] ? (sens.data.checks[i].flips ? "yes" : "no") : "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

import type { NearMissStrength } from "@/lib/scenarios/near-miss-strength";
import { StrengthBadge } from "./strength-badge";

/**
 * Validator strength of the scenario's current versions: how many near-misses of the gold calls the
 * checks reject, per check, and each near-miss that earned full reward (a weak validator stays
 * VERIFIED and can be accepted; this is what a reviewer or a repair looks at).
 */
export function StrengthPanel({ strength, items }: { strength: NearMissStrength | null; items: string[] }) {
  return (
    <div className="space-y-3 text-sm" data-testid="strength-panel">
      <StrengthBadge strength={strength} />
      {strength && strength.status === "MEASURED" ? (
        <>
          {strength.crashed + strength.sameAsGold > 0 ? (
            <p className="text-xs text-slate-500">
              Not counted: {strength.crashed} replay(s) that crashed, {strength.sameAsGold} that ended in the
              gold final state.
            </p>
          ) : null}
          <table className="w-full text-left text-xs">
            <thead className="uppercase tracking-wide text-slate-500">
              <tr>
                <th className="py-1 pr-3">Check</th>
                <th>Near-misses it rejects</th>
              </tr>
            </thead>
            <tbody>
              {strength.perCheck.map((c) => (
                <tr key={c.position} className="border-t border-slate-100">
                  <td className="py-1 pr-3">{items[c.position] ?? `check ${c.position + 1}`}</td>
                  <td>
                    {c.rejected}/{strength.total}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {strength.passed.length ? (
            <div>
              <p className="font-medium text-amber-800">Near-misses the checks accept (reward 1):</p>
              <ul className="list-disc space-y-1 pl-5" data-testid="passed-near-misses">
                {strength.passed.map((p) => (
                  <li key={p.description}>
                    {p.description}{" "}
                    <code className="text-xs text-slate-500">
                      {p.calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(" → ") ||
                        "no calls"}
                    </code>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

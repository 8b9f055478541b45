import { Badge } from "@/components/ui/badge";
import { type NearMissStrength, isWeakValidator, strengthLabel } from "@/lib/scenarios/near-miss-strength";

/** "weak validator" (amber) when a near-miss earned full reward, else the rejected/total figure. */
export function StrengthBadge({ strength }: { strength: NearMissStrength | null }) {
  const weak = isWeakValidator(strength);
  return (
    <span className="inline-flex items-center gap-1" data-testid="strength-badge">
      {weak ? <Badge tone="amber">weak validator</Badge> : null}
      <span className={weak ? "text-amber-800" : "text-slate-600"}>{strengthLabel(strength)}</span>
    </span>
  );
}

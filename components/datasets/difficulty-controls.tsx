"use client";
/**
 * The preview's difficulty controls: leave out zero-signal scenarios, the group size G and k of the
 * figures, a success-rate band for the train split, the order of the list; and what they do (how
 * many are left out, the expected share of zero-signal groups before and after).
 */
import { useState } from "react";
import type { DifficultySummary } from "@/lib/datasets/difficulty-plan";
import { DIFFICULTY_SORTS, type DatasetDifficulty } from "@/lib/datasets/dataset.schema";
import { Button } from "@/components/ui/button";
import { Checkbox, Input, Select } from "@/components/ui/inputs";

export type DifficultyChoice = Partial<Omit<DatasetDifficulty, "trainBand" | "testBand">> & {
  trainBand?: { min: number; max: number };
};

const share = (x: number | null) => (x === null ? "unknown (no rollouts)" : `${(x * 100).toFixed(1)} %`);

export function DifficultySummaryLine({ summary }: { summary: DifficultySummary }) {
  return (
    <p className="text-sm text-slate-700" data-testid="preview-difficulty">
      {summary.measured} scenario(s) with rollouts on their pins · {summary.excludedZeroSignal} left out as
      zero-signal · {summary.excludedByBand} outside the band · expected zero-signal groups at G=
      {summary.groupSize}: {share(summary.zeroSignalShareBefore)} before,{" "}
      {share(summary.zeroSignalShareAfter)} after
    </p>
  );
}

export function DifficultyControls({
  value,
  onApply,
}: {
  value: DifficultyChoice;
  onApply: (d: DifficultyChoice) => void;
}) {
  const [draft, setDraft] = useState<DifficultyChoice>(value);
  const band = draft.trainBand;
  return (
    <fieldset
      className="grid gap-2 rounded border border-slate-200 p-2 text-sm sm:grid-cols-3"
      aria-label="Difficulty"
    >
      <Checkbox
        label="Leave out zero-signal scenarios"
        checked={draft.excludeZeroSignal ?? false}
        onChange={(e) => setDraft({ ...draft, excludeZeroSignal: e.target.checked })}
      />
      <label className="block">
        Group size G
        <Input
          type="number"
          min={2}
          value={draft.groupSize ?? 8}
          onChange={(e) => setDraft({ ...draft, groupSize: Number(e.target.value) })}
        />
      </label>
      <label className="block">
        k (pass@k, pass^k)
        <Input
          type="number"
          min={1}
          value={draft.k ?? 4}
          onChange={(e) => setDraft({ ...draft, k: Number(e.target.value) })}
        />
      </label>
      <label className="block">
        Train band: min success rate
        <Input
          type="number"
          min={0}
          max={1}
          step={0.05}
          value={band?.min ?? ""}
          onChange={(e) =>
            setDraft({
              ...draft,
              trainBand:
                e.target.value === "" ? undefined : { min: Number(e.target.value), max: band?.max ?? 1 },
            })
          }
        />
      </label>
      <label className="block">
        Train band: max success rate
        <Input
          type="number"
          min={0}
          max={1}
          step={0.05}
          value={band?.max ?? ""}
          onChange={(e) =>
            setDraft({
              ...draft,
              trainBand:
                e.target.value === "" ? undefined : { min: band?.min ?? 0, max: Number(e.target.value) },
            })
          }
        />
      </label>
      <label className="block">
        Sort by
        <Select
          value={draft.sort ?? "key"}
          onChange={(e) => setDraft({ ...draft, sort: e.target.value as DatasetDifficulty["sort"] })}
        >
          {DIFFICULTY_SORTS.map((s) => (
            <option key={s} value={s}>
              {s === "key" ? "scenario" : s.replaceAll("_", " ")}
            </option>
          ))}
        </Select>
      </label>
      <div>
        <Button variant="outline" size="xs" onClick={() => onApply(draft)}>
          Apply difficulty filters
        </Button>
      </div>
    </fieldset>
  );
}

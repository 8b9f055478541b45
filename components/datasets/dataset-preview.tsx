"use client";
/**
 * The preview of a dataset version before it is made: which scenarios enter with which pinned
 * versions (as version numbers), which are left out and why, and warnings. Pins are chosen here
 * per environment; items without accepted, proven pins enter only with a written override reason.
 */
import Link from "next/link";
import { useState } from "react";
import type { DatasetPlan } from "@/lib/datasets/plan";
import { isWeakValidator } from "@/lib/scenarios/near-miss-strength";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/inputs";
import { Button } from "@/components/ui/button";
import { type DifficultyChoice, DifficultyControls, DifficultySummaryLine } from "./difficulty-controls";
import { ToggleButton } from "@/components/ui/toggle-button";
import { StrengthBadge } from "@/components/scenarios/strength-badge";

const rate = (x: number | null | undefined) => (x === null || x === undefined ? "–" : x.toFixed(3));

export type PreviewChoices = {
  pins: Record<string, string>;
  overrideReason: string;
  difficulty: DifficultyChoice;
};

const checksLabel = (versions: number[]) =>
  versions.length ? `checks ${versions.map((v) => `v${v}`).join(" · ")}` : "no checks";

function PinPicker({
  plan,
  choices,
  onChange,
}: {
  plan: DatasetPlan;
  choices: PreviewChoices;
  onChange: (c: PreviewChoices) => void;
}) {
  const pickable = plan.environments.filter((e) => e.versions.length > 1 || e.pinnedVersionId === null);
  if (pickable.length === 0) return null;
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      {pickable.map((e) => (
        <Field key={e.id} label={`Version of ${e.slug}`}>
          {(control) => (
            <Select
              {...control}
              className="mt-1 w-full"
              value={choices.pins[e.id] ?? e.pinnedVersionId ?? ""}
              onChange={(ev) => onChange({ ...choices, pins: { ...choices.pins, [e.id]: ev.target.value } })}
            >
              {e.pinnedVersionId === null ? <option value="">— none accepted —</option> : null}
              {e.versions.map((v) => (
                <option key={v.id} value={v.id}>
                  v{v.version}
                  {v.accepted ? " (accepted)" : " (not accepted)"}
                  {v.current ? " · current" : ""}
                </option>
              ))}
            </Select>
          )}
        </Field>
      ))}
    </div>
  );
}

function OverrideField({
  choices,
  onChange,
}: {
  choices: PreviewChoices;
  onChange: (c: PreviewChoices) => void;
}) {
  const [reason, setReason] = useState(choices.overrideReason);
  return (
    <div className="space-y-1 rounded border border-amber-300 bg-amber-50 p-2 text-sm">
      <Field
        className="block"
        label={
          <>
            Override reason{" "}
            <span className="text-xs text-slate-500">
              (lets in the items above that need an override; logged with your name)
            </span>
          </>
        }
      >
        {(control) => (
          <Textarea
            {...control}
            className="mt-1 w-full"
            rows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        )}
      </Field>
      <Button
        variant="outline"
        size="xs"
        disabled={!reason.trim()}
        onClick={() => onChange({ ...choices, overrideReason: reason.trim() })}
      >
        Include them by override
      </Button>
    </div>
  );
}

export function DatasetPreview({
  plan,
  choices,
  onChange,
}: {
  plan: DatasetPlan;
  choices: PreviewChoices;
  onChange: (c: PreviewChoices) => void;
}) {
  const total = plan.included.length + plan.excluded.length;
  const [weakOnly, setWeakOnly] = useState(false);
  const weakCount = plan.included.filter((i) => isWeakValidator(i.strength)).length;
  const shown = weakOnly ? plan.included.filter((i) => isWeakValidator(i.strength)) : plan.included;
  return (
    <div className="space-y-3 rounded border border-slate-200 p-3" data-preview data-testid="dataset-preview">
      <p className="text-sm font-medium" data-testid="preview-summary">
        Includes {plan.included.length} of {total} scenarios
      </p>
      {plan.warnings.length ? (
        <ul className="space-y-0.5 text-sm text-amber-800">
          {plan.warnings.map((w) => (
            <li key={w} data-testid="preview-warning">
              ⚠ {w}
            </li>
          ))}
        </ul>
      ) : null}
      <PinPicker plan={plan} choices={choices} onChange={onChange} />
      <DifficultyControls
        value={choices.difficulty}
        onApply={(difficulty) => onChange({ ...choices, difficulty })}
      />
      {plan.difficulty ? <DifficultySummaryLine summary={plan.difficulty} /> : null}
      <div
        className="inline-flex overflow-hidden rounded border border-slate-300"
        role="radiogroup"
        aria-label="Show"
      >
        <ToggleButton
          shape="segment"
          role="radio"
          aria-checked={!weakOnly}
          selected={!weakOnly}
          onClick={() => setWeakOnly(false)}
        >
          All included ({plan.included.length})
        </ToggleButton>
        <ToggleButton
          shape="segment"
          role="radio"
          aria-checked={weakOnly}
          selected={weakOnly}
          onClick={() => setWeakOnly(true)}
          data-testid="preview-filter-weak"
        >
          Weak validators ({weakCount})
        </ToggleButton>
      </div>
      <table className="w-full text-left text-xs" data-testid="preview-included">
        <thead>
          <tr className="text-slate-500">
            <th>Included</th>
            <th>Environment</th>
            <th>Checks</th>
            <th>Strength</th>
            <th>Split</th>
            <th title="rollouts on these pins (successes)">n (c)</th>
            <th>Success rate</th>
            <th>pass@k</th>
            <th>pass^k</th>
            <th>P(signal)</th>
            <th>Note</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((i) => (
            <tr key={i.scenarioId} data-testid="preview-included-row">
              <td className="font-mono">{i.key}</td>
              <td>
                {i.environmentSlug} v{i.environmentVersion}
              </td>
              <td>{checksLabel(i.validatorVersions)}</td>
              <td>
                <StrengthBadge strength={i.strength} />
              </td>
              <td>{i.split.toLowerCase()}</td>
              <td>{i.difficulty ? `${i.difficulty.n} (${i.difficulty.successes})` : "–"}</td>
              <td data-testid="preview-success-rate">{rate(i.difficulty?.success_rate)}</td>
              <td>{rate(i.difficulty?.pass_at_k)}</td>
              <td>{rate(i.difficulty?.pass_hat_k)}</td>
              <td>{rate(i.difficulty?.p_signal)}</td>
              <td className={i.overridden ? "text-amber-800" : "text-slate-500"}>{i.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {plan.excluded.length ? (
        <table className="w-full text-left text-xs" data-testid="preview-excluded">
          <thead>
            <tr className="text-slate-500">
              <th>Left out</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {plan.excluded.map((e) => (
              <tr key={e.scenarioId} data-testid="preview-excluded-row">
                <td className="font-mono">{e.key}</td>
                <td>
                  {e.reason}
                  {e.needsOverride ? " (override possible)" : ""}
                  {e.action ? (
                    <>
                      {" — "}
                      {e.action.href ? (
                        <Link href={e.action.href} className="text-indigo-700 hover:underline">
                          {e.action.label}
                        </Link>
                      ) : (
                        <span className="text-slate-600">{e.action.label}</span>
                      )}
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {/* Only where it can change something: an item waiting for an override, or one let in by it. */}
      {plan.excluded.some((e) => e.needsOverride) || plan.included.some((i) => i.overridden) ? (
        <OverrideField choices={choices} onChange={onChange} />
      ) : null}
    </div>
  );
}

"use client";
/**
 * The preview of a dataset version before it is made: which scenarios enter with which pinned
 * versions (as version numbers), which are left out and why, and warnings. Pins are chosen here
 * per environment; items without accepted, proven pins enter only with a written override reason.
 */
import Link from "next/link";
import { useState } from "react";
import type { DatasetPreviewPage, PreviewPage } from "@/lib/datasets/preview-page";
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
  plan: DatasetPreviewPage;
  choices: PreviewChoices;
  onChange: (c: PreviewChoices) => void;
}) {
  // The server sends only the environments with something to pick.
  const pickable = plan.environments;
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

/** "Showing 101–200 of 53,333" with Previous / Next, when a list has more than one page. */
function Pager({
  offset,
  limit,
  total,
  label,
  onOffset,
}: {
  offset: number;
  limit: number;
  total: number;
  label: string;
  onOffset: (offset: number) => void;
}) {
  if (total <= limit && offset === 0) return null;
  const last = Math.min(total, offset + limit);
  return (
    <div className="flex items-center gap-2 text-xs text-slate-600" data-testid={`preview-pager-${label}`}>
      <span>
        Showing {total === 0 ? 0 : (offset + 1).toLocaleString()}–{last.toLocaleString()} of{" "}
        {total.toLocaleString()} {label}
      </span>
      <Button
        variant="outline"
        size="xs"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </Button>
      <Button variant="outline" size="xs" disabled={last >= total} onClick={() => onOffset(offset + limit)}>
        Next
      </Button>
    </div>
  );
}

function ExcludedReasons({ plan }: { plan: DatasetPreviewPage }) {
  if (plan.reasons.length === 0) return null;
  return (
    <ul className="space-y-0.5 text-xs text-slate-700" data-testid="preview-reasons">
      {plan.reasons.map((r) => (
        <li key={r.reason}>
          <span className="font-medium tabular-nums">{r.count.toLocaleString()}</span> left out: {r.reason}
          {r.needsOverride ? " (override possible)" : ""}
        </li>
      ))}
    </ul>
  );
}

export function DatasetPreview({
  plan,
  choices,
  onChange,
  onPage,
}: {
  plan: DatasetPreviewPage;
  choices: PreviewChoices;
  onChange: (c: PreviewChoices) => void;
  onPage: (page: Partial<PreviewPage>) => void;
}) {
  const { totals, page } = plan;
  const weakOnly = page.show === "weak";
  const show = (s: PreviewPage["show"]) => onPage({ ...page, show: s, offset: 0 });
  return (
    <div className="space-y-3 rounded border border-slate-200 p-3" data-preview data-testid="dataset-preview">
      <p className="text-sm font-medium" data-testid="preview-summary">
        Includes {totals.included} of {totals.scenarios} scenarios
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
          onClick={() => show("all")}
        >
          All included ({totals.included})
        </ToggleButton>
        <ToggleButton
          shape="segment"
          role="radio"
          aria-checked={weakOnly}
          selected={weakOnly}
          onClick={() => show("weak")}
          data-testid="preview-filter-weak"
        >
          Weak validators ({totals.weak})
        </ToggleButton>
      </div>
      <Pager
        offset={page.offset}
        limit={page.limit}
        total={totals.shown}
        label="included"
        onOffset={(offset) => onPage({ ...page, offset })}
      />
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
          {plan.included.map((i) => (
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
      <ExcludedReasons plan={plan} />
      <Pager
        offset={page.excludedOffset}
        limit={page.limit}
        total={totals.excluded}
        label="left out"
        onOffset={(excludedOffset) => onPage({ ...page, excludedOffset })}
      />
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
      {totals.needsOverride > 0 || totals.overridden > 0 ? (
        <OverrideField choices={choices} onChange={onChange} />
      ) : null}
    </div>
  );
}

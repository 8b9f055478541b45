"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ErrorState } from "@/components/ui/states";
import { DatasetPreview } from "./dataset-preview";
import { EnvironmentPicker } from "./environment-picker";
import type { EligibleEnvironmentsPage } from "@/lib/datasets/eligible-environments.schema";
import { SplitFields, splitValues } from "./split-fields";
import { useDatasetDraft } from "./use-dataset-draft";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/inputs";

export type EditableItem = { scenarioId: string; key: string; task: string; split: "TRAIN" | "TEST" };

/** Editing never changes a version: it makes the next one from the current choices, previewed first. */
export function NewVersionForm({
  name,
  seed,
  testRatio,
  environments,
  items,
}: {
  name: string;
  seed: number;
  testRatio: number;
  environments: EligibleEnvironmentsPage;
  items: EditableItem[];
}) {
  const router = useRouter();
  const ref = useRef<HTMLFormElement>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [excluded, setExcluded] = useState<string[]>([]);
  const draft = useDatasetDraft(ref, (form) => ({
    name,
    ...splitValues(form),
    environments: selected.length ? selected : undefined,
    excludeScenarioIds: excluded,
  }));

  function submit() {
    draft.create(() => {
      setExcluded([]);
      router.refresh();
    });
  }

  return (
    <form
      ref={ref}
      action={submit}
      onChange={draft.onFormChange}
      className="space-y-3"
      aria-label="New version"
    >
      <SplitFields seed={seed} testRatio={testRatio} />
      <EnvironmentPicker
        initial={environments}
        selected={selected}
        onChange={(ids) => {
          setSelected(ids);
          draft.reset();
        }}
      />
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-700">
          Exclude scenarios ({excluded.length} of {items.length} excluded)
        </summary>
        <ul className="mt-1 max-h-64 space-y-0.5 overflow-auto">
          {items.map((i) => (
            <li key={i.scenarioId}>
              <Checkbox
                labelClassName="items-start"
                title={i.task}
                checked={excluded.includes(i.scenarioId)}
                onChange={(e) =>
                  setExcluded(
                    e.target.checked
                      ? [...excluded, i.scenarioId]
                      : excluded.filter((x) => x !== i.scenarioId),
                  )
                }
                label={
                  <>
                    <span className="font-mono text-xs">{i.key}</span>
                    <span className="truncate text-xs text-slate-500">{i.task}</span>
                  </>
                }
              />
            </li>
          ))}
        </ul>
      </details>
      {draft.plan ? (
        <DatasetPreview
          plan={draft.plan}
          choices={draft.choices}
          onChange={draft.preview}
          onPage={(page) => draft.preview(draft.choices, page)}
        />
      ) : null}
      {draft.error ? <ErrorState title="Could not make a new version" message={draft.error} /> : null}
      <div className="flex gap-2">
        <Button onClick={() => draft.preview()} disabled={draft.pending} variant="secondary" size="md">
          Preview
        </Button>
        <Button
          type="submit"
          disabled={draft.pending || !draft.plan?.totals.included}
          variant="primary"
          size="md"
        >
          {draft.pending ? "Working…" : "Create new version"}
        </Button>
      </div>
    </form>
  );
}

"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createDatasetVersionAction } from "@/app/datasets/actions";
import { ErrorState } from "@/components/ui/states";
import { type EligibleEnvironment, EnvironmentPicker } from "./environment-picker";
import { SplitFields, splitValues } from "./split-fields";

export type EditableItem = { scenarioId: string; key: string; task: string; split: "TRAIN" | "TEST" };

/** Editing never changes a version: it makes the next one from the current choices. */
export function NewVersionForm({ name, seed, testRatio, environments, items }: { name: string; seed: number; testRatio: number; environments: EligibleEnvironment[]; items: EditableItem[] }) {
  const router = useRouter();
  const [selected, setSelected] = useState<string[]>([]);
  const [excluded, setExcluded] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(form: FormData) {
    startTransition(async () => {
      const result = await createDatasetVersionAction({ name, ...splitValues(form), environments: selected.length ? selected : undefined, excludeScenarioIds: excluded });
      if (!result.ok) return setError(result.error);
      setError(null);
      setExcluded([]);
      router.refresh();
    });
  }

  return (
    <form action={submit} className="space-y-3" aria-label="New version">
      <SplitFields seed={seed} testRatio={testRatio} />
      <EnvironmentPicker environments={environments} selected={selected} onChange={setSelected} />
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-700">Exclude scenarios ({excluded.length} of {items.length} excluded)</summary>
        <ul className="mt-1 max-h-64 space-y-0.5 overflow-auto">
          {items.map((i) => (
            <li key={i.scenarioId}>
              <label className="flex items-start gap-2" title={i.task}>
                <input type="checkbox" checked={excluded.includes(i.scenarioId)} onChange={(e) => setExcluded(e.target.checked ? [...excluded, i.scenarioId] : excluded.filter((x) => x !== i.scenarioId))} />
                <span className="font-mono text-xs">{i.key}</span>
                <span className="truncate text-xs text-slate-500">{i.task}</span>
              </label>
            </li>
          ))}
        </ul>
      </details>
      {error ? <ErrorState title="Could not make a new version" message={error} /> : null}
      <button type="submit" disabled={pending} className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
        {pending ? "Creating…" : "Create new version"}
      </button>
    </form>
  );
}

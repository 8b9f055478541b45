"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createDatasetVersionAction } from "@/app/datasets/actions";
import { ErrorState } from "@/components/ui/states";
import { type EligibleEnvironment, EnvironmentPicker } from "./environment-picker";
import { SplitFields, inputClass, splitValues } from "./split-fields";

export function NewDatasetForm({ environments }: { environments: EligibleEnvironment[] }) {
  const router = useRouter();
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(form: FormData) {
    startTransition(async () => {
      const result = await createDatasetVersionAction({
        name: form.get("name"), description: form.get("description") || undefined, ...splitValues(form),
        environments: selected.length ? selected : undefined, isNew: true,
      });
      if (!result.ok) return setError(result.error);
      router.push(`/datasets/${result.value.datasetId}`);
    });
  }

  return (
    <form action={submit} className="space-y-3" aria-label="New dataset">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm">Name
          <input name="name" required className={inputClass} placeholder="library-v1" />
        </label>
        <label className="block text-sm">Description
          <input name="description" className={inputClass} />
        </label>
      </div>
      <SplitFields />
      <EnvironmentPicker environments={environments} selected={selected} onChange={setSelected} />
      {error ? <ErrorState title="Could not create the dataset" message={error} /> : null}
      <button type="submit" disabled={pending} className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
        {pending ? "Creating…" : "Create dataset"}
      </button>
    </form>
  );
}

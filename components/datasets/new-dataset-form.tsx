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
import { InputField } from "@/components/ui/field";

export function NewDatasetForm({ environments }: { environments: EligibleEnvironmentsPage }) {
  const router = useRouter();
  const ref = useRef<HTMLFormElement>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const draft = useDatasetDraft(ref, (form) => ({
    name: form.get("name"),
    description: form.get("description") || undefined,
    ...splitValues(form),
    environments: selected.length ? selected : undefined,
    isNew: true,
  }));

  function submit() {
    draft.create((created) => router.push(`/datasets/${created.datasetId}`));
  }

  return (
    <form
      ref={ref}
      action={submit}
      onChange={draft.onFormChange}
      className="space-y-3"
      aria-label="New dataset"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField label="Name" name="name" required className="mt-1 w-full" placeholder="library-v1" />
        <InputField label="Description" name="description" className="mt-1 w-full" />
      </div>
      <SplitFields />
      <EnvironmentPicker
        initial={environments}
        selected={selected}
        onChange={(ids) => {
          setSelected(ids);
          draft.reset();
        }}
      />
      {draft.plan ? (
        <DatasetPreview
          plan={draft.plan}
          choices={draft.choices}
          onChange={draft.preview}
          onPage={(page) => draft.preview(draft.choices, page)}
        />
      ) : null}
      {draft.error ? <ErrorState title="Could not create the dataset" message={draft.error} /> : null}
      <div className="flex gap-2">
        <Button onClick={() => draft.preview()} disabled={draft.pending} variant="secondary" size="md">
          Preview
        </Button>
        <Button
          type="submit"
          disabled={draft.pending || !draft.plan?.totals.included}
          disabledReason={draft.plan ? undefined : "Preview first"}
          variant="primary"
          size="md"
        >
          {draft.pending ? "Working…" : "Create dataset"}
        </Button>
      </div>
    </form>
  );
}

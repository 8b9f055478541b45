"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/core/result";
import type { BulkReply } from "@/lib/review/bulk.schema";
import { unwrapAction } from "@/components/data/unwrap-action";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/inputs";

/** The form the rows' checkboxes belong to (their `form` attribute), wherever they are rendered. */
export const SCENARIO_BULK_FORM = "scenario-bulk";

type Props = {
  datasets: { id: string; name: string }[];
  action: (input: unknown) => Promise<ActionResult<BulkReply>>;
};

const boxes = () => [
  ...document.querySelectorAll<HTMLInputElement>(`input[form="${SCENARIO_BULK_FORM}"][name="scenarioId"]`),
];

/**
 * Bulk "Add to dataset" on the Scenarios list: the ticked rows go into the chosen dataset's next
 * version, by the dataset's rules; the reply says how many were added and why any were left out.
 */
export function ScenarioBulkBar({ datasets, action }: Props) {
  const router = useRouter();
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? "");
  const add = useMutation({
    mutationFn: (scenarioIds: string[]) => unwrapAction(action({ datasetId, scenarioIds })),
    onSuccess: () => router.refresh(),
  });
  const reply = add.data;
  return (
    <form
      id={SCENARIO_BULK_FORM}
      aria-label="Add scenarios to a dataset"
      className="flex flex-wrap items-center gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        const ids = new FormData(e.currentTarget).getAll("scenarioId").map(String);
        add.mutate(ids);
      }}
    >
      <Button
        type="button"
        variant="secondary"
        size="sm"
        onClick={() => {
          const all = boxes();
          const tick = all.some((b) => !b.checked);
          for (const b of all) b.checked = tick;
        }}
      >
        Select all shown
      </Button>
      {datasets.length === 0 ? (
        <span className="text-slate-500">Create a dataset on Datasets to add scenarios to it.</span>
      ) : (
        <>
          <Select
            aria-label="Dataset"
            value={datasetId}
            onChange={(e) => setDatasetId(e.target.value)}
            className="w-56"
          >
            {datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </Select>
          <Button type="submit" size="sm" disabled={add.isPending}>
            Add selected to dataset
          </Button>
        </>
      )}
      {add.error ? (
        <p role="alert" className="basis-full text-rose-700">
          {add.error.message}
        </p>
      ) : null}
      {reply ? (
        <div role="status" className="basis-full" data-testid="scenario-bulk-result">
          {reply.dataset
            ? `Added ${reply.decided} of ${reply.selected} to ${reply.dataset.name} v${reply.dataset.version}.`
            : `Added none of ${reply.selected}: no new version was made.`}
          {reply.skipped.length ? (
            <ul className="mt-1 list-disc pl-5 text-slate-600">
              {reply.skipped.map((s) => (
                <li key={s.id}>
                  <code>{s.id}</code>: {s.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

"use client";
import Link from "next/link";
import { useState } from "react";
import type { BulkReply } from "@/lib/review/bulk.schema";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/inputs";
import { Toolbar } from "@/components/ui/toolbar";

export type BulkOp = "accept" | "reject" | "prove" | "dataset";

/**
 * The bulk bar: what is selected (ticked rows, or every item matching the filter, loaded or not),
 * and the four bulk operations. Rejecting asks for one reason; adding to a dataset asks which one.
 */
export function BulkBar({
  size,
  allMatching,
  matching,
  loaded,
  datasets,
  pending,
  onSelectAllMatching,
  onClear,
  onRun,
}: {
  size: number;
  allMatching: boolean;
  matching: number;
  loaded: number;
  datasets: { id: string; name: string }[];
  pending: boolean;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onRun: (op: BulkOp, extra: { reason?: string; datasetId?: string }) => void;
}) {
  const [asking, setAsking] = useState<"reject" | "dataset" | null>(null);
  const [reason, setReason] = useState("");
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? "");
  const none = size === 0;
  const busy = pending ? "Waiting for the last bulk decision" : "Select items first";
  return (
    <Toolbar label="Decide the selected items" className="space-y-2" data-testid="bulk-bar">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="mr-auto text-slate-700" data-testid="bulk-size">
          {allMatching
            ? `All ${size} items matching the filter selected${matching > loaded ? ` (${loaded} loaded)` : ""}`
            : `${size} selected`}
        </span>
        {!allMatching && matching > 0 ? (
          <Button variant="secondary" size="xs" onClick={onSelectAllMatching} disabled={pending}>
            Select all {matching} matching the filter
          </Button>
        ) : null}
        {!none ? (
          <Button variant="ghost" size="xs" onClick={onClear} disabled={pending}>
            Clear selection
          </Button>
        ) : null}
        <Button
          variant="success"
          size="xs"
          disabled={none || pending}
          disabledReason={busy}
          title="Accept the selected items; those that need an override reason are skipped"
          onClick={() => onRun("accept", {})}
        >
          Accept selected
        </Button>
        <Button
          variant="danger"
          size="xs"
          disabled={none || pending}
          disabledReason={busy}
          onClick={() => setAsking(asking === "reject" ? null : "reject")}
        >
          Reject selected…
        </Button>
        <Button
          variant="secondary"
          size="xs"
          disabled={none || pending}
          disabledReason={busy}
          title="Launch one proof run for the selected scenarios"
          onClick={() => onRun("prove", {})}
        >
          Prove selected
        </Button>
        <Button
          variant="secondary"
          size="xs"
          disabled={none || pending || !datasets.length}
          disabledReason={datasets.length ? busy : "No dataset yet: create one on the Datasets page"}
          onClick={() => setAsking(asking === "dataset" ? null : "dataset")}
        >
          Add to dataset…
        </Button>
      </div>
      {asking === "reject" ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!reason.trim()) return;
            onRun("reject", { reason: reason.trim() });
            setAsking(null);
            setReason("");
          }}
        >
          <Field label="Reason for every selected item" className="flex-1 text-sm">
            {(control) => (
              <Input
                {...control}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                tone="danger"
                className="w-full"
                placeholder="Why reject these?"
              />
            )}
          </Field>
          <Button type="submit" variant="danger" disabled={pending || !reason.trim()}>
            Reject {size}
          </Button>
        </form>
      ) : null}
      {asking === "dataset" ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            onRun("dataset", { datasetId });
            setAsking(null);
          }}
        >
          <Field
            label="Dataset"
            hint="Makes its next version: the latest version's items plus the selected scenarios that are accepted and proven."
            className="flex-1 text-sm"
          >
            {(control) => (
              <Select {...control} value={datasetId} onChange={(e) => setDatasetId(e.target.value)}>
                {datasets.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit" disabled={pending || !datasetId}>
            Add {size} to the dataset
          </Button>
        </form>
      ) : null}
    </Toolbar>
  );
}

/** What the last bulk operation did: how many, and each skipped item with why. */
export function BulkResult({
  verb,
  reply,
  titleOf,
}: {
  verb: string;
  reply: BulkReply;
  titleOf: (kind: string, id: string) => string;
}) {
  const shown = reply.skipped.slice(0, 50);
  return (
    <div
      role="status"
      className="space-y-1 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm"
      data-testid="bulk-result"
    >
      <p className={reply.decided ? "text-emerald-700" : "text-slate-700"}>
        <span data-testid="bulk-decided">{reply.decided}</span> of {reply.selected} {verb}
        {reply.skipped.length ? (
          <>
            {" "}
            · <span data-testid="bulk-skipped">{reply.skipped.length}</span> skipped
          </>
        ) : null}
        {reply.runId ? (
          <>
            {" "}
            ·{" "}
            <Link href={`/runs/${reply.runId}`} className="underline">
              proof run
            </Link>
          </>
        ) : null}
        {reply.dataset ? (
          <>
            {" "}
            ·{" "}
            <Link href={`/datasets/${reply.dataset.id}`} className="underline">
              {reply.dataset.name} v{reply.dataset.version}
            </Link>
          </>
        ) : null}
      </p>
      {shown.length ? (
        <ul className="list-disc pl-5 text-xs text-amber-800" data-testid="bulk-skipped-list">
          {shown.map((s) => (
            <li key={`${s.kind}:${s.id}`}>
              {titleOf(s.kind, s.id)}: {s.reason}
            </li>
          ))}
          {reply.skipped.length > shown.length ? (
            <li>and {reply.skipped.length - shown.length} more</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}

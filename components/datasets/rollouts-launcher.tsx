"use client";
/** Launches k rollouts per scenario per model over a dataset version, then links to the run. */
import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { launchDatasetRolloutsAction } from "@/app/datasets/actions";
import { unwrapAction } from "@/components/data/unwrap-action";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/inputs";
import { ErrorState } from "@/components/ui/states";

export function RolloutsLauncher({ dataset, version }: { dataset: string; version: number }) {
  const [k, setK] = useState("4");
  const [models, setModels] = useState("");
  const launching = useMutation({
    mutationFn: () => unwrapAction(launchDatasetRolloutsAction({ dataset, version, k, models })),
  });
  return (
    <div className="space-y-2 text-sm" data-testid="rollouts-launcher">
      <div className="grid gap-2 sm:grid-cols-3">
        <label className="block">
          Rollouts per scenario per model (k)
          <Input type="number" min={1} value={k} onChange={(e) => setK(e.target.value)} />
        </label>
        <label className="block sm:col-span-2">
          Models (comma-separated; empty: the configured model)
          <Input
            value={models}
            onChange={(e) => setModels(e.target.value)}
            placeholder="gpt-4.1, gpt-4.1-mini"
          />
        </label>
      </div>
      <Button variant="secondary" size="md" disabled={launching.isPending} onClick={() => launching.mutate()}>
        {launching.isPending ? "Starting…" : `Roll out v${version}`}
      </Button>
      {launching.data ? (
        <p>
          Started:{" "}
          <Link className="text-indigo-700 underline" href={`/runs/${launching.data.runId}`}>
            follow the run
          </Link>
        </p>
      ) : null}
      {launching.error ? (
        <ErrorState title="Could not start the rollouts" message={launching.error.message} />
      ) : null}
    </div>
  );
}

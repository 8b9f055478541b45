"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { ActionResult } from "@/lib/core/result";
import type { LaunchRepair } from "@/lib/repair/repair-launch.schema";
import { unwrapAction } from "@/components/data/unwrap-action";
import { RunProgress } from "@/components/scenarios/run-progress";
import { Button } from "@/components/ui/button";

type Props = {
  target: LaunchRepair["target"];
  action: (input: unknown) => Promise<ActionResult<{ runId: string }>>;
  /** The button's text (default "Repair failing items"). */
  label?: string;
};

/**
 * "Repair failing items": a REPAIR run over the failing items of this page's subject (failing and
 * weak scenarios, and an environment's code when its quality probes failed); its progress
 * polls until it ends, and proven proposals wait in the review queue (/review, kind "repair").
 */
export function RepairButton({ target, action, label = "Repair failing items" }: Props) {
  const [runId, setRunId] = useState<string | null>(null);
  const launch = useMutation({
    mutationFn: () => unwrapAction(action({ target })),
    onSuccess: (r) => setRunId(r.runId),
  });
  return (
    <div className="space-y-2" data-testid="repair-launcher">
      <div className="flex items-center gap-2">
        <Button type="button" size="md" disabled={launch.isPending} onClick={() => launch.mutate()}>
          {label}
        </Button>
        <span className="text-xs text-slate-500">
          The model proposes fixes; only proven ones reach the{" "}
          <a className="underline" href="/review?kind=repair">
            queue
          </a>
          .
        </span>
      </div>
      {launch.error ? (
        <p role="alert" className="text-sm text-rose-700">
          {launch.error.message}
        </p>
      ) : null}
      {runId ? <RunProgress runId={runId} /> : null}
    </div>
  );
}

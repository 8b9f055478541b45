"use client";
import { useMutation } from "@tanstack/react-query";
import { type ComponentProps, useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/core/result";
import { unwrapAction } from "@/components/data/unwrap-action";
import { RunProgress } from "./run-progress";
import { Button } from "@/components/ui/button";
import { Field, InputField } from "@/components/ui/field";
import { Select } from "@/components/ui/inputs";

type LaunchResult = ActionResult<{ runId: string }>;

type Actions = {
  generate: (input: unknown) => Promise<LaunchResult>;
  prove: (input: unknown) => Promise<LaunchResult>;
  rollouts: (input: unknown) => Promise<LaunchResult>;
};

const LABEL = "block text-xs text-slate-600";

/** A labelled launch setting, its input beside the label. */
const LaunchInput = (props: ComponentProps<typeof InputField>) => (
  <InputField fieldClassName={LABEL} className="ml-1" {...props} />
);

/** Launch forms for an environment's scenario work; each launch shows its run's live progress. */
export function RunLauncher({
  environmentId,
  defaultModel,
  recentRunIds,
  actions,
}: {
  environmentId: string;
  defaultModel: string;
  recentRunIds: string[];
  actions: Actions;
}) {
  const [runIds, setRunIds] = useState<string[]>(recentRunIds);
  // A launch starts a run nothing has read yet; its RunProgress polls it from then on.
  const launch = useMutation({
    mutationFn: ({ action, input }: { action: Actions[keyof Actions]; input: unknown }) =>
      unwrapAction(action(input)),
    onSuccess: ({ runId }) => setRunIds((ids) => [runId, ...ids.filter((id) => id !== runId)].slice(0, 5)),
  });
  const pending = launch.isPending;
  const message = launch.error?.message ?? null;

  const submit =
    (action: (input: unknown) => Promise<LaunchResult>) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const input = { environmentId, ...Object.fromEntries(new FormData(event.currentTarget)) };
      launch.mutate({ action, input });
    };

  return (
    <div className="space-y-4" data-testid="run-launcher">
      <div className="grid gap-4 md:grid-cols-3">
        <form onSubmit={submit(actions.generate)} className="space-y-2" aria-label="Generate scenarios">
          <h3 className="text-sm font-medium">Generate scenarios</h3>
          <LaunchInput label="Count" name="count" type="number" min={1} max={200} defaultValue={10} />
          <LaunchInput label="Model" name="model" defaultValue={defaultModel} />
          <Button type="submit" disabled={pending} variant="primary" size="md">
            Generate
          </Button>
        </form>
        <form onSubmit={submit(actions.prove)} className="space-y-2" aria-label="Prove validators">
          <h3 className="text-sm font-medium">Validator proof</h3>
          <p className="text-xs text-slate-500">No-op, gold replay and sensitivity for every scenario.</p>
          <Button type="submit" disabled={pending} variant="primary" size="md">
            Prove validators
          </Button>
        </form>
        <form onSubmit={submit(actions.rollouts)} className="space-y-2" aria-label="Run rollouts">
          <h3 className="text-sm font-medium">Rollouts</h3>
          <LaunchInput label="Models (comma-separated)" name="models" defaultValue={defaultModel} />
          <LaunchInput label="Per scenario (k)" name="k" type="number" min={1} max={32} defaultValue={1} />
          <Field label="Mode" className={LABEL}>
            {(control) => (
              <Select {...control} name="mode" defaultValue="non_conversational" className="ml-1">
                <option value="non_conversational">Non-conversational (30 steps)</option>
                <option value="conversational">Conversational, simulated user (40 steps)</option>
              </Select>
            )}
          </Field>
          <LaunchInput label="User model (conversational)" name="userModel" />
          <Field label="Scenarios" className={LABEL}>
            {(control) => (
              <Select {...control} name="verifiedOnly" defaultValue="true" className="ml-1">
                <option value="true">verified only</option>
                <option value="false">all but rejected</option>
              </Select>
            )}
          </Field>
          <Button type="submit" disabled={pending} variant="primary" size="md">
            Run rollouts
          </Button>
        </form>
      </div>
      {message ? (
        <p role="alert" className="text-sm text-rose-700">
          {message}
        </p>
      ) : null}
      <div className="space-y-2">
        {runIds.map((id) => (
          <RunProgress key={id} runId={id} />
        ))}
      </div>
    </div>
  );
}

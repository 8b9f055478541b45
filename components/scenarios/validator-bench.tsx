"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { runBenchAction } from "@/app/scenarios/[id]/actions";
import type { BenchRun } from "@/lib/scenarios/bench.schema";
import { useUnsavedGuard } from "@/components/code/use-unsaved-guard";
import { JsonObjectEditor } from "@/components/ui/json-object-editor";
import { JsonView } from "@/components/ui/json-view";
import { unwrapAction } from "@/components/data/unwrap-action";
import { ValidatorCard, type ValidatorState } from "./validator-card";
import { Button } from "@/components/ui/button";
import { Radio, Select } from "@/components/ui/inputs";

type Source = BenchRun["stateSource"];
type Props = {
  scenarioId: string;
  validators: ValidatorState[];
  trajectories: { id: string; label: string }[];
  initialTrajectory?: string;
  hasGold: boolean;
  canEdit: boolean;
};

export function ValidatorBench(props: Props) {
  const [validators, setValidators] = useState(props.validators);
  const [source, setSource] = useState<Source>(
    props.initialTrajectory ? "trajectory" : props.hasGold ? "gold" : "initial",
  );
  const [trajectoryId, setTrajectoryId] = useState(
    props.initialTrajectory ?? props.trajectories[0]?.id ?? "",
  );
  const [customState, setCustomState] = useState<Record<string, unknown> | null>({});
  const [run, setRun] = useState<BenchRun | null>(null);
  // The last run stays on screen while the next one runs or if it fails.
  const bench = useMutation({
    mutationFn: (input: Parameters<typeof runBenchAction>[0]) => unwrapAction(runBenchAction(input)),
    onSuccess: setRun,
  });
  const error = bench.error?.message ?? null;
  const running = bench.isPending;
  useUnsavedGuard(validators.some((v) => v.text !== v.base.code));
  const update = (id: string, patch: Partial<ValidatorState>) =>
    setValidators((list) => list.map((v) => (v.id === id ? { ...v, ...patch } : v)));

  const execute = () => {
    const codes = Object.fromEntries(
      validators.filter((v) => v.text !== v.base.code).map((v) => [v.id, v.text]),
    );
    bench.mutate({
      scenarioId: props.scenarioId,
      stateSource: source,
      trajectoryId,
      customState: customState ?? undefined,
      codes,
    });
  };
  const option = (value: Source, label: string, disabled = false) => (
    <Radio
      name="state-source"
      value={value}
      checked={source === value}
      disabled={disabled}
      onChange={() => setSource(value)}
      label={label}
      labelClassName={`gap-1 text-sm ${disabled ? "text-slate-400" : ""}`}
    />
  );
  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_22rem]">
      <ol className="space-y-3">
        {validators.map((v) => (
          <ValidatorCard
            key={v.id}
            v={v}
            canEdit={props.canEdit}
            result={run?.checks.find((c) => c.validatorId === v.id)?.result}
            onChange={(text) => update(v.id, { text })}
            onSaved={(base, checkItem) => update(v.id, { base, ...(checkItem ? { checkItem } : {}) })}
          />
        ))}
      </ol>
      <aside className="space-y-3">
        {props.canEdit ? (
          <fieldset className="space-y-1 rounded border border-slate-200 bg-white p-3">
            <legend className="px-1 text-sm font-semibold text-slate-700">Run the checks against</legend>
            {option("initial", "the initial state (no-op agent)")}
            {option("gold", "the gold final state (replays gold calls)", !props.hasGold)}
            {option("trajectory", "a trajectory's final state", !props.trajectories.length)}
            {source === "trajectory" ? (
              <Select
                aria-label="Trajectory"
                value={trajectoryId}
                onChange={(e) => setTrajectoryId(e.target.value)}
                className="w-full"
              >
                {props.trajectories.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.label}
                  </option>
                ))}
              </Select>
            ) : null}
            {option("custom", "a state I edit")}
            {source === "custom" ? (
              <JsonObjectEditor label="Custom final state" initial="{}" onValid={setCustomState} rows={8} />
            ) : null}
            <Button
              onClick={execute}
              disabled={running || (source === "custom" && !customState)}
              variant="primary"
              size="md"
              className="mt-2 w-full"
            >
              {running ? "Running in the sandbox…" : "Run checks"}
            </Button>
          </fieldset>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-rose-700">
            {error}
          </p>
        ) : null}
        {run ? (
          <div className="space-y-1" data-testid="bench-summary">
            <p className="text-sm">
              {run.checks.filter((c) => "passed" in c.result && c.result.passed).length}/{run.checks.length}{" "}
              checks passed on the {run.stateSource} state
              {run.goldLog.length
                ? ` (${run.goldLog.length} gold calls, ${run.goldLog.filter((g) => g.isError).length} returned errors)`
                : ""}
            </p>
            <JsonView value={run.finalState} maxHeight="24rem" />
          </div>
        ) : null}
      </aside>
    </div>
  );
}

"use client";
import { useState, useTransition } from "react";
import { runToolAction } from "@/app/environments/[id]/playground/actions";
import type { Tool } from "@/lib/environments/environment.schema";
import type { PlaygroundStep } from "@/lib/playground/playground.schema";
import { JsonObjectEditor } from "@/components/ui/json-object-editor";
import { JsonView, StateDiffView } from "@/components/ui/json-view";
import { ToolForm } from "./tool-form";
import { Button } from "@/components/ui/button";
import { ToggleButton } from "@/components/ui/toggle-button";

type ScenarioOption = { id: string; externalId: string; initialState: Record<string, unknown> };
type Props = {
  environmentId: string;
  versionId: string;
  version: number;
  tools: Tool[];
  scenarios: ScenarioOption[];
  canRun: boolean;
};

export function Playground(props: Props) {
  const first = props.scenarios[0];
  const [source, setSource] = useState<string>(first ? first.id : "custom");
  const [custom, setCustom] = useState<Record<string, unknown> | null>({});
  const [history, setHistory] = useState<PlaygroundStep[]>([]);
  const [selected, setSelected] = useState<string | null>(props.tools[0]?.function.name ?? null);
  const [error, setError] = useState<string | null>(null);
  const [running, startRunning] = useTransition();
  const initialState =
    source === "custom" ? custom : (props.scenarios.find((s) => s.id === source)?.initialState ?? null);
  const tool = props.tools.find((t) => t.function.name === selected);
  const last = history.at(-1);

  const reset = () => {
    setHistory([]);
    setError(null);
  };
  const run = (args: Record<string, unknown>) => {
    if (!initialState || !tool) return;
    startRunning(async () => {
      const result = await runToolAction({
        environmentId: props.environmentId,
        versionId: props.versionId,
        initialState,
        history: history.map((h) => ({ ...h.call, observation: h.observation })),
        call: { name: tool.function.name, args },
      });
      if (!result.ok) return setError(result.error.message);
      setError(null);
      setHistory((h) => [...h, result.value]);
    });
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[16rem_1fr_1fr]">
      <aside className="space-y-3">
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Initial state</span>
          <select
            aria-label="Initial state"
            value={source}
            onChange={(e) => {
              setSource(e.target.value);
              reset();
            }}
            className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
          >
            {props.scenarios.map((s) => (
              <option key={s.id} value={s.id}>
                scenario {s.externalId}
              </option>
            ))}
            <option value="custom">Custom JSON…</option>
          </select>
        </label>
        {source === "custom" ? (
          <JsonObjectEditor
            label="Custom initial state"
            initial="{}"
            onValid={(v) => {
              setCustom(v);
              reset();
            }}
          />
        ) : null}
        <ul className="space-y-0.5" aria-label="Tools">
          {props.tools.map((t) => (
            <li key={t.function.name}>
              <ToggleButton
                shape="row"
                selected={t.function.name === selected}
                onClick={() => setSelected(t.function.name)}
              >
                {t.function.name}
              </ToggleButton>
            </li>
          ))}
        </ul>
      </aside>
      <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        {!props.canRun ? <p className="text-sm text-slate-500">Viewers can read but not run tools.</p> : null}
        {tool && props.canRun ? (
          <ToolForm
            key={tool.function.name}
            tool={tool}
            onRun={run}
            running={running}
            disabled={!initialState}
          />
        ) : null}
        {!initialState ? <p className="text-xs text-rose-700">Fix the initial state JSON first.</p> : null}
        {error ? (
          <p role="alert" className="text-sm text-rose-700">
            {error}
          </p>
        ) : null}
        <div className="flex items-center justify-between">
          <h3 className="text-sm font-semibold text-slate-700">Steps ({history.length})</h3>
          <Button onClick={reset} disabled={!history.length} variant="ghost" size="sm">
            Reset
          </Button>
        </div>
        <ol className="space-y-3" data-testid="step-history">
          {history.map((h, i) => (
            <li key={i} className="rounded border border-slate-200 p-2" data-testid="playground-step">
              <p className="font-mono text-xs">
                <b>
                  {i + 1}. {h.call.name}
                </b>
                ({JSON.stringify(h.call.args)})
                {h.isError ? <span className="ml-2 text-rose-700">error</span> : null}
              </p>
              {h.divergedAt !== null ? (
                <p className="text-xs text-amber-700">
                  Replay differed at step {h.divergedAt + 1}: a tool is not deterministic.
                </p>
              ) : null}
              <JsonView value={h.observation} maxHeight="10rem" testId="step-observation" />
              <StateDiffView diff={h.diff} testId="step-diff" />
            </li>
          ))}
        </ol>
      </section>
      <section className="space-y-2">
        <h3 className="text-sm font-semibold text-slate-700">
          {last ? `State after step ${history.length}` : "Initial state"}
        </h3>
        <JsonView value={last ? last.state : initialState} maxHeight="40rem" testId="playground-state" />
        <p className="text-xs text-slate-500">
          Version {props.version}. Each call replays the steps above in a fresh sandbox episode.
        </p>
      </section>
    </div>
  );
}

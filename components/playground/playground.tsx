"use client";
import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { runToolAction } from "@/app/environments/[id]/playground/actions";
import type { Tool } from "@/lib/environments/environment.schema";
import type { PlaygroundStep } from "@/lib/playground/playground.schema";
import { JsonView } from "@/components/ui/json-view";
import { useHotkeys } from "@/components/ui/use-hotkeys";
import { CUSTOM_STATE, PlaygroundSidebar, type ScenarioOption } from "./playground-sidebar";
import { StepHistory } from "./step-history";
import { unwrapAction } from "@/components/data/unwrap-action";
import { ToolForm } from "./tool-form";

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
  const [source, setSource] = useState<string>(first ? first.id : CUSTOM_STATE);
  const [custom, setCustom] = useState<Record<string, unknown> | null>({});
  const [history, setHistory] = useState<PlaygroundStep[]>([]);
  const [selected, setSelected] = useState<string | null>(props.tools[0]?.function.name ?? null);
  // Each call replays the history in the sandbox; the history is this page's own state.
  const call = useMutation({
    mutationFn: (input: Record<string, unknown>) => unwrapAction(runToolAction(input)),
    onSuccess: (step) => setHistory((h) => [...h, step]),
  });
  const error = call.error?.message ?? null;
  const running = call.isPending;
  const initialState =
    source === CUSTOM_STATE ? custom : (props.scenarios.find((s) => s.id === source)?.initialState ?? null);
  const tool = props.tools.find((t) => t.function.name === selected);
  const last = history.at(-1);

  // Ctrl/Cmd+Enter runs the selected tool from anywhere on the page, as its Run button does (the
  // form's own submit, so its argument checks apply).
  const formBox = useRef<HTMLDivElement>(null);
  useHotkeys(
    {
      "mod+enter": () => {
        if (!running && initialState) formBox.current?.querySelector("form")?.requestSubmit();
      },
    },
    { enabled: props.canRun },
  );

  const reset = () => {
    setHistory([]);
    call.reset();
  };
  const run = (args: Record<string, unknown>) => {
    if (!initialState || !tool) return;
    call.mutate({
      environmentId: props.environmentId,
      versionId: props.versionId,
      initialState,
      history: history.map((h) => ({ ...h.call, observation: h.observation })),
      call: { name: tool.function.name, args },
    });
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[16rem_1fr_1fr]">
      <PlaygroundSidebar
        scenarios={props.scenarios}
        source={source}
        onSource={(value) => {
          setSource(value);
          reset();
        }}
        onCustom={(value) => {
          setCustom(value);
          reset();
        }}
        tools={props.tools}
        selected={selected}
        onSelect={setSelected}
      />
      <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        {!props.canRun ? <p className="text-sm text-slate-500">Viewers can read but not run tools.</p> : null}
        {tool && props.canRun ? (
          <div ref={formBox}>
            <ToolForm
              key={tool.function.name}
              tool={tool}
              onRun={run}
              running={running}
              disabled={!initialState}
            />
            <p className="mt-1 text-xs text-slate-500">Ctrl+Enter (⌘↵) runs the tool.</p>
          </div>
        ) : null}
        {!initialState ? <p className="text-xs text-rose-700">Fix the initial state JSON first.</p> : null}
        {error ? (
          <p role="alert" className="text-sm text-rose-700">
            {error}
          </p>
        ) : null}
        <StepHistory history={history} onReset={reset} />
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

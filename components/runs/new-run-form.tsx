"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ComponentProps, useState } from "react";
import { startRunAction } from "@/app/runs/actions";
import { textFieldsOf } from "@/lib/pipeline/task-file";
import { ErrorState } from "@/components/ui/states";
import { DemoModelBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, InputField } from "@/components/ui/field";
import { FileInput, Radio, Select, Textarea } from "@/components/ui/inputs";
import { unwrapAction } from "@/components/data/unwrap-action";

const WIDE = "mt-1 w-full";

const NO_ENDPOINT_FIX =
  "Set OPENAI_BASE_URL (and OPENAI_API_KEY) to an OpenAI-compatible endpoint and restart the studio, or try the pipeline offline with `npm start -- --demo` (canned replies).";

type ModelDefaults = { modelMain: string; modelCheck: string; modelEmbedding: string };

/** The run's settings beside the task source: name, models, quality gates and budget. */
const settingFields = (defaults: ModelDefaults): (ComponentProps<typeof InputField> & { name: string })[] => [
  { label: "Name", name: "name", placeholder: "optional" },
  { label: "Main model", name: "modelMain", defaultValue: defaults.modelMain },
  { label: "Tester/judge model", name: "modelCheck", defaultValue: defaults.modelCheck },
  {
    label: "Embeddings model",
    name: "modelEmbedding",
    defaultValue: defaults.modelEmbedding,
    placeholder: "none: MinHash dedup",
  },
  { label: "Min usefulness", name: "minUsefulness", type: "number", min: 1, max: 10, defaultValue: 7 },
  { label: "Min modelability", name: "minModelability", type: "number", min: 1, max: 10, defaultValue: 7 },
  { label: "Quality rounds", name: "qualityRounds", type: "number", min: 1, max: 200, defaultValue: 30 },
  {
    label: "Min not-fail rate",
    name: "minNotFailRate",
    type: "number",
    step: "0.01",
    min: 0,
    max: 1,
    defaultValue: 0.85,
  },
  { label: "Max tokens", name: "maxTokens", type: "number", min: 1, placeholder: "no limit" },
  {
    label: "Max cost (USD)",
    name: "maxCostUsd",
    type: "number",
    step: "0.01",
    min: 0,
    placeholder: "no limit",
  },
];

function detectFields(text: string): string[] {
  try {
    const t = text.trim();
    const items: unknown[] = t.startsWith("[")
      ? (JSON.parse(t) as unknown[])
      : t
          .split(/\r?\n/)
          .filter(Boolean)
          .slice(0, 50)
          .map((l) => JSON.parse(l) as unknown);
    return textFieldsOf(items);
  } catch {
    return []; // the server reports the precise parse error on submit
  }
}

export function NewRunForm({
  defaults,
}: {
  defaults: ModelDefaults & { endpointConfigured: boolean; isDemo: boolean };
}) {
  const router = useRouter();
  const [source, setSource] = useState<"ideas" | "tasks">("ideas");
  const [file, setFile] = useState<{ name: string; text: string; fields: string[] } | null>(null);
  const start = useMutation({
    mutationFn: (input: Record<string, unknown>) => unwrapAction(startRunAction(input)),
    onSuccess: ({ runId }) => router.push(`/runs/${runId}`),
  });
  const error = start.error?.message ?? null;
  const pending = start.isPending;

  async function onFile(f: File | undefined) {
    if (!f) return setFile(null);
    const text = await f.text();
    setFile({ name: f.name, text, fields: detectFields(text) });
  }

  function submit(form: FormData) {
    const values = Object.fromEntries(form.entries());
    start.mutate({ ...values, source, taskFileText: file?.text, taskFileName: file?.name });
  }

  return (
    <form action={submit} className="space-y-4" aria-label="New run">
      {!defaults.endpointConfigured ? (
        <ErrorState title="No LLM endpoint: a run cannot start" message={NO_ENDPOINT_FIX} />
      ) : null}
      {defaults.isDemo ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <DemoModelBadge /> Every model below answers from the offline demo&apos;s script.
        </p>
      ) : null}
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Source</legend>
        <Radio
          name="src"
          checked={source === "ideas"}
          onChange={() => setSource("ideas")}
          label="Type ideas"
        />
        <Radio
          name="src"
          checked={source === "tasks"}
          onChange={() => setSource("tasks")}
          label="Upload a task file"
        />
      </fieldset>
      {source === "ideas" ? (
        <Field label="Environment ideas (one per line)">
          {(control) => (
            <Textarea
              {...control}
              name="ideas"
              rows={5}
              className={WIDE}
              placeholder="A public library lending desk with holds and fines"
            />
          )}
        </Field>
      ) : (
        <div className="space-y-2 text-sm">
          <Field label="Task file (JSON array or JSONL of strings or objects)">
            {(control) => (
              <FileInput
                {...control}
                accept=".json,.jsonl,.txt"
                aria-label="Task file"
                className="mt-1"
                onChange={(e) => void onFile(e.target.files?.[0])}
              />
            )}
          </Field>
          {file?.fields.length ? (
            <Field label="Text field">
              {(control) => (
                <Select {...control} name="textField" className={WIDE}>
                  {file.fields.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </Select>
              )}
            </Field>
          ) : null}
        </div>
      )}
      <div className="grid grid-cols-3 gap-3 text-sm">
        {settingFields(defaults).map((field) => (
          <InputField key={field.name} {...field} className={WIDE} />
        ))}
      </div>
      {error ? <ErrorState title="Could not start the run" message={error} /> : null}
      <div className="flex items-center gap-3">
        <Button
          type="submit"
          disabled={pending || !defaults.endpointConfigured}
          variant="primary"
          size="lg"
          aria-describedby={defaults.endpointConfigured ? undefined : "start-run-blocked"}
          disabledReason={defaults.endpointConfigured ? undefined : "No LLM endpoint is configured"}
        >
          {pending ? "Starting…" : "Start run"}
        </Button>
        {!defaults.endpointConfigured ? (
          <span id="start-run-blocked" className="text-sm text-slate-600">
            Disabled: no LLM endpoint is configured.
          </span>
        ) : null}
      </div>
    </form>
  );
}

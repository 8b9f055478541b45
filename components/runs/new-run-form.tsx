"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { startRunAction } from "@/app/runs/actions";
import { textFieldsOf } from "@/lib/pipeline/task-file";
import { ErrorState } from "@/components/ui/states";
import { Button } from "@/components/ui/button";
import { unwrapAction } from "@/components/data/unwrap-action";

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm";

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
  defaults: { modelMain: string; modelCheck: string; modelEmbedding: string; endpointConfigured: boolean };
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
        <ErrorState
          title="No LLM endpoint"
          message="Set OPENAI_BASE_URL (and OPENAI_API_KEY) for the worker; runs fail until then."
        />
      ) : null}
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Source</legend>
        <label>
          <input type="radio" name="src" checked={source === "ideas"} onChange={() => setSource("ideas")} />{" "}
          Type ideas
        </label>
        <label>
          <input type="radio" name="src" checked={source === "tasks"} onChange={() => setSource("tasks")} />{" "}
          Upload a task file
        </label>
      </fieldset>
      {source === "ideas" ? (
        <label className="block text-sm">
          Environment ideas (one per line)
          <textarea
            name="ideas"
            rows={5}
            className={input}
            placeholder="A public library lending desk with holds and fines"
          />
        </label>
      ) : (
        <div className="space-y-2 text-sm">
          <label className="block">
            Task file (JSON array or JSONL of strings or objects)
            <input
              type="file"
              accept=".json,.jsonl,.txt"
              aria-label="Task file"
              className="mt-1 block"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </label>
          {file?.fields.length ? (
            <label className="block">
              Text field
              <select name="textField" className={input}>
                {file.fields.map((f) => (
                  <option key={f}>{f}</option>
                ))}
              </select>
            </label>
          ) : null}
        </div>
      )}
      <div className="grid grid-cols-3 gap-3 text-sm">
        <label>
          Name <input name="name" className={input} placeholder="optional" />
        </label>
        <label>
          Main model <input name="modelMain" className={input} defaultValue={defaults.modelMain} />
        </label>
        <label>
          Tester/judge model <input name="modelCheck" className={input} defaultValue={defaults.modelCheck} />
        </label>
        <label>
          Embeddings model{" "}
          <input
            name="modelEmbedding"
            className={input}
            defaultValue={defaults.modelEmbedding}
            placeholder="none: MinHash dedup"
          />
        </label>
        <label>
          Min usefulness{" "}
          <input name="minUsefulness" type="number" min={1} max={10} defaultValue={7} className={input} />
        </label>
        <label>
          Min modelability{" "}
          <input name="minModelability" type="number" min={1} max={10} defaultValue={7} className={input} />
        </label>
        <label>
          Quality rounds{" "}
          <input name="qualityRounds" type="number" min={1} max={200} defaultValue={30} className={input} />
        </label>
        <label>
          Min not-fail rate{" "}
          <input
            name="minNotFailRate"
            type="number"
            step="0.01"
            min={0}
            max={1}
            defaultValue={0.85}
            className={input}
          />
        </label>
        <label>
          Max tokens <input name="maxTokens" type="number" min={1} className={input} placeholder="no limit" />
        </label>
        <label>
          Max cost (USD){" "}
          <input
            name="maxCostUsd"
            type="number"
            step="0.01"
            min={0}
            className={input}
            placeholder="no limit"
          />
        </label>
      </div>
      {error ? <ErrorState title="Could not start the run" message={error} /> : null}
      <Button type="submit" disabled={pending} variant="primary" size="lg">
        {pending ? "Starting…" : "Start run"}
      </Button>
    </form>
  );
}

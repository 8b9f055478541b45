import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { orNotFound } from "@/app/or-not-found";
import { getDb } from "@/lib/db";
import { getStepArtifacts } from "@/lib/pipeline/server/get-run";
import { StatusBadge } from "@/components/ui/badge";
import { Card } from "@/components/ui/states";
import { AttemptList } from "@/components/runs/llm-attempts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Step artifacts" };

const Json = ({ value, label }: { value: unknown; label: string }) => (
  <pre
    aria-label={label}
    className="max-h-96 overflow-auto whitespace-pre-wrap rounded bg-slate-900 p-3 text-xs text-slate-100"
  >
    {typeof value === "string" ? value : JSON.stringify(value, null, 2)}
  </pre>
);

export default async function StepPage({ params }: { params: Promise<{ id: string; stepId: string }> }) {
  const { id, stepId } = await params;
  const step = await orNotFound(getStepArtifacts(getDb(), stepId));
  if (step.runId !== id) notFound();
  return (
    <div className="space-y-4">
      <Link href={`/runs/${id}`} className="text-sm text-indigo-700 underline">
        ← Back to the run
      </Link>
      <h1 className="flex items-center gap-3 text-2xl font-semibold tracking-tight">
        {step.stage} · {step.subjectKey} <StatusBadge status={step.status} />
      </h1>
      <p className="text-sm text-slate-500">
        attempt {step.attempt} · {step.promptTokens + step.completionTokens} tokens · $
        {step.costUsd.toFixed(4)}
        {step.durationMs ? ` · ${(step.durationMs / 1000).toFixed(1)} s` : ""}
      </p>
      {step.errorMessage ? (
        <Card title={`Error (${step.errorCode ?? "?"}, ${step.retryable ? "retryable" : "not retryable"})`}>
          <p className="whitespace-pre-wrap text-sm text-rose-800">{step.errorMessage}</p>
        </Card>
      ) : null}
      <Card title="Input">
        <Json label="step input" value={step.input} />
      </Card>
      <Card title="Output">
        <Json label="step output" value={step.output ?? "(none yet)"} />
      </Card>
      <Card title={`LLM calls (${step.llmCalls.length})`}>
        <ol className="space-y-3" data-testid="llm-calls">
          {step.llmCalls.map((c) => (
            <li key={c.id} className="rounded border border-slate-200 p-2">
              <details>
                <summary className="cursor-pointer text-sm">
                  {c.purpose || "call"} · {c.model} · {c.status.toLowerCase()}
                  {c.status === "LOST" ? " (paid, answer lost; estimated)" : ""} ·{" "}
                  {c.cached ? "cache hit" : `${c.attempts} attempt(s), ${c.latencyMs} ms`} · {c.promptTokens}+
                  {c.completionTokens} tokens · ${c.costUsd.toFixed(5)}
                  {c.errorMessage ? ` · ${c.errorMessage}` : ""}
                </summary>
                <h3 className="mt-2 text-xs font-semibold text-slate-600">Request (prompt)</h3>
                <Json label="request" value={c.request} />
                <h3 className="mt-2 text-xs font-semibold text-slate-600">Raw response</h3>
                <Json label="response" value={c.response ?? "(no response)"} />
              </details>
              {c.rejection ? (
                <p className="mt-1 whitespace-pre-wrap text-sm text-amber-900">rejected: {c.rejection}</p>
              ) : null}
              {c.attempts > 1 || c.attemptLog.some((a) => !a.ok) ? (
                <AttemptList attempts={c.attemptLog} />
              ) : null}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}

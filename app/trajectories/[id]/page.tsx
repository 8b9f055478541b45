import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { TrajectoryStepSchema } from "@/lib/rollout/rollout.schema";
import { readTrajectoryMessages } from "@/lib/rollout/stored-messages";
import { getTrajectoryOrThrow } from "@/lib/rollout/server/get-trajectory";
import { TrajectorySteps } from "@/components/rollout/trajectory-steps";
import { StatusBadge } from "@/components/ui/badge";
import { Card } from "@/components/ui/states";
import { orNotFound } from "@/app/or-not-found";

export const dynamic = "force-dynamic";
type Props = { params: Promise<{ id: string }> };

async function load(id: string) {
  const db = getDb();
  const project = await getDefaultProject(db);
  return orNotFound(getTrajectoryOrThrow(db, project.id, decodeURIComponent(id)));
}

export const metadata: Metadata = { title: "Trajectory" };

const Checks = z
  .array(z.union([z.object({ passed: z.boolean() }), z.object({ error: z.string() })]))
  .catch([]);

export default async function TrajectoryPage({ params }: Props) {
  const t = await load((await params).id);
  const steps = z.array(TrajectoryStepSchema).catch([]).parse(t.steps);
  const read = readTrajectoryMessages(t.messages);
  const messages = read.ok ? read.value : { agent: [], endReason: null, score: null };
  const checks = Checks.parse(t.checkResults);
  return (
    <div className="space-y-5">
      <div>
        <Link href={`/scenarios/${t.scenario.id}`} className="text-sm text-indigo-700 hover:underline">
          ← Scenario {t.scenario.externalId}
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">Trajectory #{t.rolloutIndex}</h1>
          <StatusBadge status={t.status} />
        </div>
        <p className="mt-1 text-sm text-slate-500" data-testid="trajectory-summary">
          {t.model} · {t.mode.replace("_", "-")} · {t.stepCount} steps · ended: {messages.endReason ?? "—"} ·
          reward <strong>{t.reward}</strong> (checks score {messages.score ?? "—"}) · SFT{" "}
          {t.sftPass === null ? "—" : t.sftPass ? "pass" : `fail (${t.flagReason ?? ""})`}
        </p>
      </div>
      <Card title="Per-check results">
        <ul className="space-y-1 text-sm" data-testid="check-results">
          {t.scenario.validators.map((v, i) => {
            const c = checks[i];
            const label = !c
              ? "not run"
              : "passed" in c
                ? c.passed
                  ? "passed"
                  : "failed"
                : `error: ${c.error}`;
            return (
              <li
                key={v.position}
                className={c && "passed" in c && c.passed ? "text-emerald-800" : "text-rose-800"}
              >
                {label} — {v.checkItem}
              </li>
            );
          })}
        </ul>
      </Card>
      <Card title="Steps (tool calls, observations, state diffs)">
        <TrajectorySteps steps={steps} />
      </Card>
      <Card title="Messages">
        {!read.ok && (
          <p className="text-sm text-rose-800" data-testid="messages-unreadable">
            These messages cannot be shown: {read.error}
          </p>
        )}
        <ol className="space-y-2 text-sm" data-testid="trajectory-messages">
          {messages.agent.map((m, i) => (
            <li key={i}>
              <span className="font-mono text-xs uppercase text-slate-500">{m.role}</span>{" "}
              {m.role === "assistant" && m.toolCalls?.length ? (
                m.toolCalls.map((c) => (
                  <code key={c.id} className="mr-2 text-xs">
                    {c.name}({c.arguments})
                  </code>
                ))
              ) : (
                <span className="whitespace-pre-wrap">{m.content}</span>
              )}
            </li>
          ))}
        </ol>
      </Card>
      <Card title="Final state">
        <pre className="max-h-96 overflow-auto rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(t.finalState, null, 2)}
        </pre>
      </Card>
    </div>
  );
}

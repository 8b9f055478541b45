import Link from "next/link";
import type { RunView } from "@/lib/pipeline/run-view.schema";
import { StatusBadge } from "@/components/ui/badge";
import { Card, EmptyState } from "@/components/ui/states";

/** Failed steps with their error code, retryability and attempt; each links to the step's detail. */
export function FailuresCard({ runId, failures }: { runId: string; failures: RunView["failures"] }) {
  return (
    <Card title={`Failures (${failures.length})`}>
      {failures.length === 0 ? (
        <p className="text-sm text-slate-500">None.</p>
      ) : (
        <ul className="space-y-2 text-sm" data-testid="failures">
          {failures.map((f) => (
            <li key={f.id} className="rounded border border-rose-100 bg-rose-50 p-2">
              <Link href={`/runs/${runId}/steps/${f.id}`} className="font-medium text-rose-800 underline">
                {f.stage} · {f.subjectKey}
              </Link>{" "}
              <span className="text-xs text-rose-700">
                {f.status.toLowerCase()} · {f.errorCode} · {f.retryable ? "retryable" : "not retryable"} ·
                attempt {f.attempt}
              </span>
              <p className="mt-1 whitespace-pre-wrap text-rose-900">{f.errorMessage}</p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The environments this run produced so far, with their review status. */
/**
 * The next step of the pipeline for one of a finished run's environments: a built one waits for a
 * reviewer's acceptance, then for its scenarios (generated for accepted environments only).
 */
function nextStep(e: RunView["environments"][number]): { label: string; href: string } | null {
  if (e.toolCount === 0 || e.scenarioCount > 0) return null;
  if (e.status === "IN_REVIEW") return { label: "Review and accept", href: `/environments/${e.id}/quality` };
  if (e.status === "ACCEPTED")
    return { label: "Generate scenarios", href: `/environments/${e.id}#scenario-launcher` };
  return null;
}

/**
 * The run's environments; once the run is over, each one without scenarios links to its next step:
 * review and acceptance, then scenario generation on its page (proven when ready).
 */
export function RunEnvironmentsCard({
  environments,
  isTerminal = false,
}: {
  environments: RunView["environments"];
  isTerminal?: boolean;
}) {
  const steps = new Map(environments.map((e) => [e.id, isTerminal ? nextStep(e) : null]));
  const pending = [...steps.values()].filter(Boolean).length;
  return (
    <Card title="Environments">
      {environments.length === 0 ? (
        <EmptyState title="No environments yet" />
      ) : (
        <>
          {pending ? (
            <p className="mb-2 text-sm text-slate-700" data-testid="run-next-step">
              Next step: review and accept {pending === 1 ? "the environment" : `the ${pending} environments`}
              , then generate scenarios (initial states, tasks and checks) for each; they are proven in the
              sandbox when ready.
            </p>
          ) : null}
          <ul className="space-y-1 text-sm" data-testid="run-environments">
            {environments.map((e) => {
              const step = steps.get(e.id);
              return (
                <li key={e.id} className="flex items-center gap-2">
                  <Link className="text-indigo-700 underline" href={`/environments/${e.id}`}>
                    {e.name}
                  </Link>
                  <StatusBadge status={e.status} />
                  <span className="text-slate-500">
                    {e.toolCount} tools · {e.scenarioCount} scenarios
                  </span>
                  {step ? (
                    <Link
                      className="rounded border border-indigo-300 px-2 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-50"
                      href={step.href}
                    >
                      {step.label}
                    </Link>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Card>
  );
}

/** Topics the run proposed, their judged scores and clusters; hidden until there is one. */
export function TopicsCard({ topics }: { topics: RunView["topics"] }) {
  if (!topics.length) return null;
  return (
    <Card title="Topics and clusters">
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="text-slate-500">
            <th>Topic</th>
            <th>Useful</th>
            <th>Model</th>
            <th>Cluster</th>
            <th>Kept</th>
          </tr>
        </thead>
        <tbody>
          {topics.map((t) => (
            <tr key={t.id} title={t.sourceTask}>
              <td>{t.summary}</td>
              <td>{t.usefulness}</td>
              <td>{t.modelability}</td>
              <td>{t.clusterKey ?? "—"}</td>
              <td>{t.kept ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

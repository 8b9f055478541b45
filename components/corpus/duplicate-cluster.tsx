"use client";
/**
 * One near-duplicate cluster: its environments side by side, and (for reviewers) the two ways to
 * resolve it: merge (keep one, the others are rejected as its duplicates through the review log) or
 * "not duplicates" (the cluster leaves the map). The page reloads its server data after either.
 */
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { dismissDuplicatesAction, mergeDuplicatesAction } from "@/app/corpus/actions";
import { unwrapAction } from "@/components/data/unwrap-action";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Radio } from "@/components/ui/inputs";
import type { ClusterMember, ClusterView } from "@/lib/corpus/corpus.schema";

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** The default to keep: an accepted one, else the one with most scenarios, else the first. */
function defaultKeep(members: ClusterMember[]): string {
  const ranked = [...members].sort(
    (a, b) =>
      Number(b.status === "ACCEPTED") - Number(a.status === "ACCEPTED") || b.scenarioCount - a.scenarioCount,
  );
  return ranked[0]?.environmentId ?? "";
}

export function DuplicateCluster({
  cluster,
  canEdit,
  index,
}: {
  cluster: ClusterView;
  canEdit: boolean;
  index: number;
}) {
  const router = useRouter();
  const [keep, setKeep] = useState(() => defaultKeep(cluster.members));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const kept = cluster.members.find((m) => m.environmentId === keep);
  const others = cluster.members.filter((m) => m.environmentId !== keep);
  const done = (text: string) => {
    setMessage({ ok: true, text });
    router.refresh();
  };
  const merge = useMutation({
    mutationFn: () =>
      unwrapAction(
        mergeDuplicatesAction({
          keep: { environmentId: kept!.environmentId, versionId: kept!.versionId },
          reject: others.map((m) => ({ environmentId: m.environmentId, versionId: m.versionId })),
        }),
      ),
    onSuccess: (r) => done(`Kept ${kept?.slug}; rejected ${r.rejected} as duplicates.`),
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });
  const dismiss = useMutation({
    mutationFn: () =>
      unwrapAction(dismissDuplicatesAction({ versionIds: cluster.members.map((m) => m.versionId) })),
    onSuccess: () => done("Marked as not duplicates."),
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });
  const pending = merge.isPending || dismiss.isPending;
  return (
    <li className="rounded border border-slate-200 p-3" data-testid="duplicate-cluster">
      <p className="mb-2 text-xs text-slate-500">
        Cluster {index} · {cluster.members.length} environments · code similarity up to{" "}
        {pct(cluster.maxCodeSimilarity)} · tool signatures up to {pct(cluster.maxToolSimilarity)}
      </p>
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            {canEdit ? <th className="w-14 font-normal">Keep</th> : null}
            <th className="font-normal">Environment</th>
            <th className="font-normal">Domain</th>
            <th className="font-normal">Status</th>
            <th className="font-normal">Tools</th>
            <th className="font-normal">Scenarios</th>
          </tr>
        </thead>
        <tbody>
          {cluster.members.map((m) => (
            <tr key={m.versionId} className="border-t border-slate-100">
              {canEdit ? (
                <td>
                  <Radio
                    label={<span className="sr-only">Keep {m.slug}</span>}
                    name={`keep-${cluster.members[0]?.versionId}`}
                    checked={keep === m.environmentId}
                    onChange={() => setKeep(m.environmentId)}
                  />
                </td>
              ) : null}
              <td>
                <Link href={`/environments/${m.environmentId}`} className="text-indigo-700 underline">
                  {m.slug}
                </Link>{" "}
                <span className="text-xs text-slate-500">v{m.version}</span>
              </td>
              <td>{m.domain}</td>
              <td>
                <StatusBadge status={m.status} />
              </td>
              <td>{m.toolCount}</td>
              <td>{m.scenarioCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {canEdit ? (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <Button variant="primary" size="xs" disabled={pending || !kept} onClick={() => merge.mutate()}>
            Merge: keep {kept?.slug ?? "…"}, reject {others.length}
          </Button>
          <Button variant="ghost" size="xs" disabled={pending} onClick={() => dismiss.mutate()}>
            Not duplicates
          </Button>
        </div>
      ) : null}
      {message ? (
        <p
          role={message.ok ? "status" : "alert"}
          className={`mt-1 text-xs ${message.ok ? "text-emerald-700" : "text-rose-700"}`}
        >
          {message.text}
        </p>
      ) : null}
    </li>
  );
}

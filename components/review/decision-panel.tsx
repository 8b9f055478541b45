"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { SeenVersions } from "@/lib/review/review.schema";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/inputs";
import { usePageRefresh } from "@/components/data/use-page-refresh";
import { mutations } from "@/components/data/mutations";

/**
 * Accept or reject an item with a reason (required to reject); the decision lands in the audit log.
 * `seen`: the versions this page shows, so a decision on an item that moved since is refused.
 */
export function DecisionPanel({
  id,
  seen,
  canDecide,
}: {
  id: string;
  seen: SeenVersions;
  canDecide: boolean;
}) {
  const page = usePageRefresh();
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const decision = useMutation(mutations.reviewDecision(useQueryClient()));
  const pending = decision.isPending || page.isRefreshing;
  if (!canDecide) return <p className="text-sm text-slate-500">Viewers cannot accept or reject.</p>;
  // The page around the panel (status, audit log) is server-rendered: refresh it either way.
  const decide = (verdict: "ACCEPT" | "REJECT") =>
    decision.mutate(
      { ...seen, id, decision: verdict, reason },
      {
        onSuccess: () => {
          setMessage({ ok: true, text: verdict === "ACCEPT" ? "Accepted." : "Rejected." });
          setReason("");
        },
        onError: (e) => setMessage({ ok: false, text: e.message }),
        onSettled: page.refresh,
      },
    );
  return (
    <div className="space-y-2">
      <Textarea
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        rows={2}
        aria-label="Reason"
        placeholder="Reason (required to reject)"
        className="w-full"
      />
      <div className="flex gap-2">
        <Button disabled={pending} onClick={() => decide("ACCEPT")} variant="success" size="sm">
          Accept
        </Button>
        <Button disabled={pending} onClick={() => decide("REJECT")} variant="danger" size="sm">
          Reject
        </Button>
      </div>
      {message ? (
        <p
          role={message.ok ? "status" : "alert"}
          className={message.ok ? "text-sm text-emerald-700" : "text-sm text-rose-700"}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}

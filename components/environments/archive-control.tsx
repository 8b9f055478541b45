"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/core/result";
import { queryKeys } from "@/components/data/query-keys";
import { unwrapAction } from "@/components/data/unwrap-action";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/inputs";

type Props = {
  environmentId: string;
  archivedAt: string | null;
  action: (input: unknown) => Promise<ActionResult<{ archivedAt: string | null }>>;
};

/**
 * Archive a failed or unwanted environment (lists hide it; nothing is deleted) or restore it. The
 * reason goes to the audit log with the decision.
 */
export function ArchiveControl({ environmentId, archivedAt, action }: Props) {
  const router = useRouter();
  const client = useQueryClient();
  const [reason, setReason] = useState("");
  const archived = archivedAt !== null;
  const change = useMutation({
    mutationFn: () => unwrapAction(action({ environmentId, archived: !archived, reason })),
    onSuccess: () => {
      setReason("");
      void client.invalidateQueries({ queryKey: queryKeys.environments.all });
      router.refresh();
    },
  });
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="archive-control">
      {archived ? null : (
        <Input
          aria-label="Archive reason"
          placeholder="reason (optional)"
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
      )}
      <Button
        type="button"
        size="sm"
        variant={archived ? "secondary" : "danger-outline"}
        disabled={change.isPending}
        onClick={() => change.mutate()}
      >
        {archived ? "Restore from archive" : "Archive"}
      </Button>
      <span className="text-xs text-slate-500">
        {archived
          ? "Hidden from lists and the review queue; restore to list it again."
          : "Hides it from lists and the review queue; nothing is deleted."}
      </span>
      {change.error ? (
        <p role="alert" className="text-rose-700">
          {change.error.message}
        </p>
      ) : null}
    </div>
  );
}

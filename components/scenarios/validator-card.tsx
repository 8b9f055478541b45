"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { saveValidatorVersionAction } from "@/app/scenarios/[id]/actions";
import { isApiError } from "@/lib/api/api-error";
import type { HeadConflict, PendingMerge } from "@/lib/environments/edit.schema";
import type { CodeMarker } from "@/lib/environments/markers";
import type { BenchCheck } from "@/lib/scenarios/bench.schema";
import { CodeEditor } from "@/components/code/code-editor";
import { SaveConflict } from "@/components/code/save-conflict";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/inputs";
import { unwrapAction } from "@/components/data/unwrap-action";

export type ValidatorState = {
  id: string;
  position: number;
  checkItem: string;
  base: { id: string; version: number; code: string };
  text: string;
};

function ResultBadge({ result }: { result: BenchCheck["result"] | undefined }) {
  if (!result) return <span className="text-xs text-slate-400">not run</span>;
  if ("error" in result)
    return (
      <Badge tone="red" title={result.error}>
        error: {result.error.slice(0, 80)}
      </Badge>
    );
  return result.passed ? <Badge tone="green">passed</Badge> : <Badge tone="amber">failed</Badge>;
}

/**
 * One checklist item: its text and its check function, edited in the same place, the last bench
 * result, save with locking (and a three-way merge when someone saved first).
 */
export function ValidatorCard({
  v,
  result,
  canEdit,
  onChange,
  onSaved,
}: {
  v: ValidatorState;
  result: BenchCheck["result"] | undefined;
  canEdit: boolean;
  onChange: (text: string) => void;
  onSaved: (base: ValidatorState["base"], checkItem?: string) => void;
}) {
  const [message, setMessage] = useState("");
  const [checkItem, setCheckItem] = useState(v.checkItem);
  const [merge, setMerge] = useState<PendingMerge | null>(null);
  const [markers, setMarkers] = useState<CodeMarker[]>([]);
  const [conflict, setConflict] = useState<HeadConflict | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);
  const dirty = v.text !== v.base.code || checkItem.trim() !== v.checkItem;
  // The bench's validators are this page's own state (onSaved), not a query: nothing to invalidate.
  const saveVersion = useMutation({
    mutationFn: (input: { code: string; checkItem: string | undefined } & Record<string, unknown>) =>
      unwrapAction(saveValidatorVersionAction(input)),
    // What was sent, not what the card holds now: typing on while the save runs stays unsaved.
    onSuccess: (saved, sent) => {
      onSaved(
        { id: saved.versionId, version: saved.version, code: sent.code },
        sent.checkItem ?? v.checkItem,
      );
      setMerge(null);
      setMessage("");
      setMarkers([]);
      setConflict(null);
      setStatus(`Saved as version ${saved.version}; the proof is now stale.`);
    },
    onError: (e) => {
      setStatus(e.message);
      const details = isApiError(e) ? e.details : undefined;
      if (isApiError(e) && e.code === "CONFLICT") setConflict((details as HeadConflict | undefined) ?? null);
      setMarkers((details as { markers?: CodeMarker[] } | undefined)?.markers ?? []);
    },
  });
  const saving = saveVersion.isPending;
  const save = () =>
    saveVersion.mutate({
      validatorId: v.id,
      baseVersionId: v.base.id,
      code: v.text,
      message,
      mergeBaseVersionId: merge?.startedFromId,
      // Only a changed text is sent, so a concurrent edit of the text is not reverted by a code edit.
      checkItem: checkItem.trim() !== v.checkItem ? checkItem.trim() : undefined,
    });
  return (
    <li className="space-y-2 rounded border border-slate-200 bg-white p-3" data-testid="validator">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{v.position + 1}.</span>
        {canEdit ? (
          <Input
            value={checkItem}
            onChange={(e) => setCheckItem(e.target.value)}
            aria-label={`Checklist text of check ${v.position + 1}`}
            className="min-w-64 flex-1"
          />
        ) : (
          <span className="font-medium">{v.checkItem}</span>
        )}
        <span className="text-xs text-slate-500">
          v{v.base.version}
          {dirty ? " · edited (not saved)" : ""}
        </span>
        <span className="ml-auto" data-testid="check-result">
          <ResultBadge result={result} />
        </span>
      </div>
      {conflict ? (
        <SaveConflict
          conflict={conflict}
          base={v.base.code}
          mine={v.text}
          onMerged={(merged) => {
            setMerge({
              startedFromId: merge?.startedFromId ?? v.base.id,
              startedFromVersion: merge?.startedFromVersion ?? v.base.version,
              headVersion: conflict.headVersion,
            });
            onSaved({ id: conflict.headVersionId, version: conflict.headVersion, code: conflict.headSource });
            onChange(merged);
            setRevision((r) => r + 1);
            setConflict(null);
            setStatus(`Merged with version ${conflict.headVersion}; review the result and save.`);
          }}
          onDiscard={() => {
            onSaved({ id: conflict.headVersionId, version: conflict.headVersion, code: conflict.headSource });
            onChange(conflict.headSource);
            setRevision((r) => r + 1);
            setConflict(null);
            setMerge(null);
          }}
        />
      ) : null}
      <div className="overflow-hidden rounded border border-slate-700">
        <CodeEditor
          height="9rem"
          value={v.text}
          revision={revision}
          markers={markers}
          onChange={(t) => onChange(t ?? "")}
          options={{ readOnly: !canEdit, lineNumbers: "off" }}
        />
      </div>
      {canEdit && dirty ? (
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <Input
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            aria-label={`Message for check ${v.position + 1}`}
            placeholder="Why this change?"
            className="flex-1"
          />
          <Button type="submit" disabled={saving || !message.trim()} variant="primary" size="sm">
            Save check
          </Button>
        </form>
      ) : null}
      {status ? (
        <p role="status" className="text-xs text-slate-600">
          {status}
        </p>
      ) : null}
    </li>
  );
}

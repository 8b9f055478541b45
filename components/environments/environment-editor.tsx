"use client";
import Link from "next/link";
import { useEffect, useState, useTransition } from "react";
import { analyzeSourceAction, saveEnvironmentVersionAction } from "@/app/environments/[id]/edit/actions";
import type { HeadConflict, PendingMerge } from "@/lib/environments/edit.schema";
import type { CodeMarker } from "@/lib/environments/markers";
import type { Tool } from "@/lib/environments/environment.schema";
import { CodeEditor } from "@/components/code/code-editor";
import { SaveConflict } from "@/components/code/save-conflict";
import { useUnsavedGuard } from "@/components/code/use-unsaved-guard";
import { ToolTable } from "./tool-table";
import { Button } from "@/components/ui/button";

type Props = {
  environmentId: string;
  baseVersionId: string;
  baseVersion: number;
  source: string;
  tools: Tool[];
  canEdit: boolean;
};

export function EnvironmentEditor(props: Props) {
  const [base, setBase] = useState({
    id: props.baseVersionId,
    version: props.baseVersion,
    source: props.source,
  });
  const [text, setText] = useState(props.source);
  const [message, setMessage] = useState("");
  const [markers, setMarkers] = useState<CodeMarker[]>([]);
  const [tools, setTools] = useState<Tool[]>(props.tools);
  const [conflict, setConflict] = useState<HeadConflict | null>(null);
  // Set after a three-way merge until saved: the saved version then records both parents.
  const [merge, setMerge] = useState<PendingMerge | null>(null);
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [saving, startSaving] = useTransition();
  const [revision, setRevision] = useState(0);
  const dirty = text !== base.source;
  useUnsavedGuard(dirty);

  // Live analysis after a pause in typing; a stale reply (the text changed since) is ignored.
  useEffect(() => {
    if (!props.canEdit || !dirty) return;
    let isCurrent = true;
    const timer = setTimeout(() => {
      void analyzeSourceAction({ environmentId: props.environmentId, source: text }).then((r) => {
        if (isCurrent && r.ok) setMarkers(r.value.markers);
      });
    }, 700);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [text, dirty, props.canEdit, props.environmentId]);

  const save = () =>
    startSaving(async () => {
      const result = await saveEnvironmentVersionAction({
        environmentId: props.environmentId,
        baseVersionId: base.id,
        source: text,
        message,
        mergeBaseVersionId: merge?.startedFromId,
      });
      if (result.ok) {
        setMerge(null);
        setBase({ id: result.value.versionId, version: result.value.version, source: text });
        setTools(result.value.tools);
        setMarkers(result.value.markers);
        setMessage("");
        setConflict(null);
        setStatus({
          tone: "ok",
          text: `Saved as version ${result.value.version}; ${result.value.tools.length} tools extracted.`,
        });
        return;
      }
      setStatus({ tone: "error", text: result.error.message });
      if (result.error.code === "CONFLICT")
        setConflict((result.error.details as HeadConflict | undefined) ?? null);
      const details = result.error.details as { markers?: CodeMarker[] } | undefined;
      if (details?.markers) setMarkers(details.markers);
    });

  return (
    <div className="space-y-4">
      {conflict ? (
        <SaveConflict
          conflict={conflict}
          base={base.source}
          mine={text}
          onMerged={(merged) => {
            setMerge({
              startedFromId: merge?.startedFromId ?? base.id,
              startedFromVersion: merge?.startedFromVersion ?? base.version,
              headVersion: conflict.headVersion,
            });
            setBase({
              id: conflict.headVersionId,
              version: conflict.headVersion,
              source: conflict.headSource,
            });
            setText(merged);
            setRevision((r) => r + 1);
            setConflict(null);
            setStatus({
              tone: "ok",
              text: `Merged with version ${conflict.headVersion}; review the result and save.`,
            });
          }}
          onDiscard={() => {
            setBase({
              id: conflict.headVersionId,
              version: conflict.headVersion,
              source: conflict.headSource,
            });
            setText(conflict.headSource);
            setRevision((r) => r + 1);
            setConflict(null);
            setMerge(null);
            setStatus(null);
          }}
        />
      ) : null}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-slate-500" data-testid="editor-base">
          Editing on top of version {base.version}
          {merge ? ` (merged with your edit of version ${merge.startedFromVersion})` : ""}
          {dirty ? " · unsaved changes" : ""}
        </span>
        <Link
          href={`/environments/${props.environmentId}/versions`}
          className="text-indigo-700 hover:underline"
        >
          Compare versions
        </Link>
      </div>
      <div className="overflow-hidden rounded-lg border border-slate-700" data-testid="code-editor">
        <CodeEditor
          height="32rem"
          value={text}
          revision={revision}
          markers={markers}
          onChange={(v) => setText(v ?? "")}
          options={{ readOnly: !props.canEdit }}
        />
      </div>
      <MarkerList markers={markers} />
      {props.canEdit ? (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <input
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="What did you change and why?"
            aria-label="Version message"
            className="min-w-80 flex-1 rounded border border-slate-300 px-3 py-1.5 text-sm"
          />
          <Button type="submit" disabled={saving || !dirty || !message.trim()} variant="primary" size="md">
            {saving ? "Saving…" : "Save new version"}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-500">You have read-only access (viewer).</p>
      )}
      {status ? (
        <p
          role="status"
          data-testid="save-status"
          className={status.tone === "ok" ? "text-sm text-emerald-700" : "text-sm text-rose-700"}
        >
          {status.text}
        </p>
      ) : null}
      <section>
        <h2 className="mb-2 text-sm font-semibold text-slate-700">
          Tools extracted from version {base.version} ({tools.length})
        </h2>
        <ToolTable tools={tools} />
      </section>
    </div>
  );
}

function MarkerList({ markers }: { markers: CodeMarker[] }) {
  if (!markers.length) return null;
  return (
    <ul className="space-y-1 text-sm" data-testid="marker-list">
      {markers.map((m, i) => (
        <li key={i} className={m.severity === "error" ? "text-rose-700" : "text-amber-700"}>
          Line {m.line}, column {m.column}: {m.message}
        </li>
      ))}
    </ul>
  );
}

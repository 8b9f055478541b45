"use client";
import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { saveEnvironmentVersionAction } from "@/app/environments/[id]/edit/actions";
import { isApiError } from "@/lib/api/api-error";
import type { HeadConflict } from "@/lib/environments/edit.schema";
import type { CodeMarker } from "@/lib/environments/markers";
import type { Tool } from "@/lib/environments/environment.schema";
import { CodeEditor } from "@/components/code/code-editor";
import { SaveConflict } from "@/components/code/save-conflict";
import { useUnsavedGuard } from "@/components/code/use-unsaved-guard";
import { MarkerList } from "./marker-list";
import { useHotkeys } from "@/components/ui/use-hotkeys";
import { saveBlockedReason, SaveVersionForm } from "./save-version-form";
import { unwrapAction } from "@/components/data/unwrap-action";
import { ToolTable } from "./tool-table";
import { useEditorDraft } from "./use-editor-draft";
import { useLiveMarkers } from "./use-live-markers";

type Props = {
  environmentId: string;
  baseVersionId: string;
  baseVersion: number;
  source: string;
  tools: Tool[];
  canEdit: boolean;
  /** The environment is accepted: a save sends it back to review, so the editor asks first. */
  isAccepted: boolean;
};

export function EnvironmentEditor(props: Props) {
  const draft = useEditorDraft({ id: props.baseVersionId, version: props.baseVersion, source: props.source });
  const { base, text, merge } = draft;
  const [message, setMessage] = useState("");
  const [tools, setTools] = useState<Tool[]>(props.tools);
  const [conflict, setConflict] = useState<HeadConflict | null>(null);
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [markers, setMarkers] = useLiveMarkers({
    environmentId: props.environmentId,
    text,
    isActive: props.canEdit && draft.isDirty,
  });
  useUnsavedGuard(draft.isDirty);

  // The editor holds the version it edits (base); the server-rendered pages re-read on navigation.
  const saveVersion = useMutation({
    mutationFn: (input: { source: string } & Record<string, unknown>) =>
      unwrapAction(saveEnvironmentVersionAction(input)),
    // The saved source is what was sent, not the editor's text now (typing on stays unsaved).
    onSuccess: (saved, sent) => {
      draft.saved(saved.versionId, saved.version, sent.source);
      setTools(saved.tools);
      setMarkers(saved.markers);
      setMessage("");
      setConflict(null);
      setStatus({
        tone: "ok",
        text: `Saved as version ${saved.version}; ${saved.tools.length} tools extracted.`,
      });
    },
    onError: (e) => {
      setStatus({ tone: "error", text: e.message });
      const details = isApiError(e) ? e.details : undefined;
      if (isApiError(e) && e.code === "CONFLICT") setConflict((details as HeadConflict | undefined) ?? null);
      const refused = (details as { markers?: CodeMarker[] } | undefined)?.markers;
      if (refused) setMarkers(refused);
    },
  });
  const saving = saveVersion.isPending;
  // Only the first save leaves the accepted state; later ones save a version already in review.
  const [isAccepted, setAccepted] = useState(props.isAccepted);
  const messageRef = useRef<HTMLInputElement>(null);
  const save = () => {
    if (
      isAccepted &&
      !window.confirm(
        `This environment is accepted. Saving makes version ${base.version + 1} and sends the environment back to the review queue (version ${base.version} stays the accepted one until then). Save?`,
      )
    )
      return setStatus({ tone: "error", text: "Not saved: the accepted environment was left as it is." });
    saveVersion.mutate(
      {
        environmentId: props.environmentId,
        baseVersionId: base.id,
        source: text,
        message,
        mergeBaseVersionId: merge?.startedFromId,
      },
      { onSuccess: () => setAccepted(false) },
    );
  };
  // Ctrl/Cmd+S saves from anywhere on the page, or says why it cannot.
  useHotkeys(
    {
      "mod+s": () => {
        const blocked = saveBlockedReason({ saving, isDirty: draft.isDirty, message });
        if (!blocked) return save();
        if (!saving) setStatus({ tone: "error", text: `Not saved. ${blocked}` });
        if (draft.isDirty && !message.trim()) messageRef.current?.focus();
      },
    },
    { enabled: props.canEdit },
  );

  return (
    <div className="space-y-4">
      {conflict ? (
        <SaveConflict
          conflict={conflict}
          base={base.source}
          mine={text}
          onMerged={(merged) => {
            draft.takeMerged(conflict, merged);
            setConflict(null);
            setStatus({
              tone: "ok",
              text: `Merged with version ${conflict.headVersion}; review the result and save.`,
            });
          }}
          onDiscard={() => {
            draft.discardMine(conflict);
            setConflict(null);
            setStatus(null);
          }}
        />
      ) : null}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-slate-500" data-testid="editor-base">
          Editing on top of version {base.version}
          {merge ? ` (merged with your edit of version ${merge.startedFromVersion})` : ""}
          {draft.isDirty ? " · unsaved changes" : ""}
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
          revision={draft.revision}
          markers={markers}
          onChange={(v) => draft.edit(v ?? "")}
          options={{ readOnly: !props.canEdit }}
        />
      </div>
      <MarkerList markers={markers} />
      {props.canEdit ? (
        <SaveVersionForm
          message={message}
          onMessage={setMessage}
          onSave={save}
          saving={saving}
          isDirty={draft.isDirty}
          messageRef={messageRef}
        />
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

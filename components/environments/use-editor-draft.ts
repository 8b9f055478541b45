"use client";
import { useState } from "react";
import type { HeadConflict, PendingMerge } from "@/lib/environments/edit.schema";

type Base = { id: string; version: number; source: string };

/**
 * The text being edited and the saved version it sits on. `revision` bumps whenever the text is
 * replaced from outside the editor (a merge, a discard) so the editor reloads it instead of keeping
 * its own buffer. After a three-way merge `merge` remembers where the edit started until it is saved,
 * so the saved version records both parents.
 */
export function useEditorDraft(initial: Base) {
  const [base, setBase] = useState(initial);
  const [text, setText] = useState(initial.source);
  const [merge, setMerge] = useState<PendingMerge | null>(null);
  const [revision, setRevision] = useState(0);

  const headOf = (conflict: HeadConflict): Base => ({
    id: conflict.headVersionId,
    version: conflict.headVersion,
    source: conflict.headSource,
  });

  return {
    base,
    text,
    merge,
    revision,
    isDirty: text !== base.source,
    /** A keystroke in the editor. */
    edit: setText,
    /** `source` was saved as `version`: it becomes the new base (typing on since stays unsaved). */
    saved: (versionId: string, version: number, source: string) => {
      setMerge(null);
      setBase({ id: versionId, version, source });
    },
    /** Keep the merged text on top of the head version that refused the save. */
    takeMerged: (conflict: HeadConflict, merged: string) => {
      setMerge({
        startedFromId: merge?.startedFromId ?? base.id,
        startedFromVersion: merge?.startedFromVersion ?? base.version,
        headVersion: conflict.headVersion,
      });
      setBase(headOf(conflict));
      setText(merged);
      setRevision((r) => r + 1);
    },
    /** Drop this edit and load the head version. */
    discardMine: (conflict: HeadConflict) => {
      setBase(headOf(conflict));
      setText(conflict.headSource);
      setRevision((r) => r + 1);
      setMerge(null);
    },
  };
}

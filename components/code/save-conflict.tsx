"use client";
import type { HeadConflict } from "@/lib/environments/edit.schema";
import { CodeDiff } from "./code-editor";

/**
 * Shown when a save was refused because someone else saved first. Nothing is lost: the reviewer's
 * text stays in the editor; they either re-apply it on top of the new head (an explicit choice,
 * after seeing the diff) or drop it and continue from the head.
 */
export function SaveConflict({ conflict, mine, onRebase, onDiscard }: { conflict: HeadConflict; mine: string; onRebase: () => void; onDiscard: () => void }) {
  return (
    <section role="alert" data-testid="save-conflict" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm">
      <p className="font-medium text-amber-900">
        Not saved: version {conflict.headVersion} by {conflict.headAuthor} ({new Date(conflict.headCreatedAt).toLocaleString("en-GB")}) replaced the version you started from.
      </p>
      <p className="text-amber-900">Their message: “{conflict.headMessage || "—"}”. Left: their version · right: yours.</p>
      <div className="overflow-hidden rounded border border-slate-700" data-testid="conflict-diff">
        <CodeDiff height="22rem" original={conflict.headSource} modified={mine} />
      </div>
      <div className="flex gap-2">
        <button type="button" onClick={onRebase} className="rounded bg-amber-600 px-3 py-1 text-white hover:bg-amber-500">
          Keep my text on top of version {conflict.headVersion}
        </button>
        <button type="button" onClick={onDiscard} className="rounded border border-amber-400 px-3 py-1 text-amber-900 hover:bg-amber-100">
          Discard mine, load version {conflict.headVersion}
        </button>
      </div>
    </section>
  );
}

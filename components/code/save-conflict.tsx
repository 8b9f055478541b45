"use client";
import { useMemo, useState } from "react";
import type { HeadConflict } from "@/lib/environments/edit.schema";
import {
  type ConflictChoice,
  type MergeChunk,
  applyChoices,
  autoMergedCount,
  conflictCount,
  mergeThreeWay,
} from "@/lib/environments/merge";
import { CodeDiff } from "./code-editor";
import { Button } from "@/components/ui/button";
import { ToggleButton } from "@/components/ui/toggle-button";

/**
 * Shown when a save was refused because someone else saved first. Nothing is lost: a three-way
 * merge (base = the version the editor started from, theirs = the new head, mine = the buffer)
 * keeps both edits where they do not overlap; overlapping hunks are shown side by side and need an
 * explicit choice. The merged text goes back into the editor to be reviewed and saved, and the
 * saved version records both parents.
 */
export function SaveConflict({
  conflict,
  base,
  mine,
  onMerged,
  onDiscard,
}: {
  conflict: HeadConflict;
  base: string;
  mine: string;
  onMerged: (text: string) => void;
  onDiscard: () => void;
}) {
  const chunks = useMemo(
    () => mergeThreeWay(base, mine, conflict.headSource),
    [base, mine, conflict.headSource],
  );
  const [choices, setChoices] = useState<(ConflictChoice | undefined)[]>([]);
  const open = conflictCount(chunks);
  const merged = applyChoices(chunks, choices);
  return (
    <section
      role="alert"
      data-testid="save-conflict"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm"
    >
      <p className="font-medium text-amber-900">
        Not saved: version {conflict.headVersion} by {conflict.headAuthor} (
        {new Date(conflict.headCreatedAt).toLocaleString("en-GB")}) replaced the version you started from.
      </p>
      <p className="text-amber-900" data-testid="merge-summary">
        Their message: “{conflict.headMessage || "—"}”. {autoMergedCount(chunks)} change(s) merged
        automatically
        {open ? `; ${open} overlapping change(s) need your choice below.` : "; nothing overlaps."}
      </p>
      <ConflictList
        chunks={chunks}
        choices={choices}
        onChoose={(i, c) => setChoices((all) => Object.assign([...all], { [i]: c }))}
        headVersion={conflict.headVersion}
      />
      <details className="text-xs">
        <summary className="cursor-pointer text-amber-900">Their version against yours</summary>
        <div className="mt-2 overflow-hidden rounded border border-slate-700" data-testid="conflict-diff">
          <CodeDiff navigable height="18rem" original={conflict.headSource} modified={mine} />
        </div>
      </details>
      <div className="flex gap-2">
        <Button
          disabled={merged === null}
          onClick={() => merged !== null && onMerged(merged)}
          variant="warning"
          size="sm"
        >
          Use the merged text
        </Button>
        <Button onClick={onDiscard} variant="outline" size="sm">
          Discard mine, load version {conflict.headVersion}
        </Button>
      </div>
    </section>
  );
}

const CHOICES: { value: ConflictChoice; label: string }[] = [
  { value: "theirs", label: "Take theirs" },
  { value: "mine", label: "Take mine" },
  { value: "both", label: "Keep both" },
];

function ConflictList({
  chunks,
  choices,
  onChoose,
  headVersion,
}: {
  chunks: MergeChunk[];
  choices: (ConflictChoice | undefined)[];
  onChoose: (i: number, c: ConflictChoice) => void;
  headVersion: number;
}) {
  const conflicts = chunks.filter(
    (c): c is Extract<MergeChunk, { kind: "conflict" }> => c.kind === "conflict",
  );
  return (
    <ol className="space-y-2">
      {conflicts.map((c, i) => (
        <li key={i} className="rounded border border-amber-300 bg-white p-2" data-testid="merge-conflict">
          <div className="grid gap-2 md:grid-cols-2">
            <div>
              <p className="text-xs font-medium text-slate-600">Theirs (version {headVersion})</p>
              <pre className="overflow-auto bg-slate-50 p-1 text-xs" data-testid="merge-theirs">
                {c.theirs.join("\n") || "(removed)"}
              </pre>
            </div>
            <div>
              <p className="text-xs font-medium text-slate-600">Yours</p>
              <pre className="overflow-auto bg-slate-50 p-1 text-xs" data-testid="merge-mine">
                {c.mine.join("\n") || "(removed)"}
              </pre>
            </div>
          </div>
          <div
            className="mt-1 flex gap-2"
            role="radiogroup"
            aria-label={`Choice for overlapping change ${i + 1}`}
          >
            {CHOICES.map((o) => (
              <ToggleButton
                key={o.value}
                shape="chip"
                selected={choices[i] === o.value}
                role="radio"
                aria-checked={choices[i] === o.value}
                onClick={() => onChoose(i, o.value)}
              >
                {o.label}
              </ToggleButton>
            ))}
          </div>
        </li>
      ))}
    </ol>
  );
}

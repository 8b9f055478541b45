"use client";
// Client-only module, loaded through next/dynamic({ ssr: false }): Monaco touches window on import.
// Monaco comes from the local npm package; without loader.config({ monaco }) @monaco-editor/react
// would inject a <script> from a CDN, which air-gapped machines cannot reach.
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/register.all";
import "monaco-editor/languages/definitions/python/register";
import Editor, { DiffEditor, loader, type DiffEditorProps, type EditorProps } from "@monaco-editor/react";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import type { CodeMarker } from "@/lib/environments/markers";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/inputs";

self.MonacoEnvironment = {
  getWorker() {
    return new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), {
      type: "module",
      name: "monaco-editor-worker",
    });
  },
};
loader.config({ monaco });

const BASE_OPTIONS = {
  minimap: { enabled: false },
  fontSize: 13,
  automaticLayout: true,
  scrollBeyondLastLine: false,
} as const;

export default function MonacoPython(props: EditorProps) {
  return (
    <Editor language="python" theme="vs-dark" {...props} options={{ ...BASE_OPTIONS, ...props.options }} />
  );
}

/**
 * Editable editor that shows sandbox analysis as inline markers (squiggles + hover messages).
 * Uncontrolled on purpose: feeding every keystroke back through `value` makes @monaco-editor/react
 * overwrite the model with a stale string while the user is still typing (characters get lost).
 * `value` is the initial text; bump `revision` to replace the text from outside (e.g. "discard mine").
 */
export function MonacoCodeEditor({
  markers = [],
  value,
  revision = 0,
  ...props
}: EditorProps & { markers?: CodeMarker[]; revision?: number }) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  // Reads the latest `value` but runs only when `revision` changes: a new `value` alone must not reset the text.
  const replaceText = useEffectEvent(() => {
    const editor = editorRef.current;
    if (editor && value !== undefined && editor.getValue() !== value) editor.setValue(value);
  });
  useEffect(() => {
    if (revision > 0) replaceText();
  }, [revision]);
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      "sandbox",
      markers.map((m) => ({
        severity: m.severity === "error" ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        message: m.message,
        startLineNumber: m.line,
        startColumn: m.column,
        endLineNumber: m.endLine,
        endColumn: m.endColumn,
      })),
    );
  }, [markers]);
  return (
    <Editor
      language="python"
      theme="vs-dark"
      {...props}
      defaultValue={value}
      onMount={(editor, m) => {
        editorRef.current = editor;
        props.onMount?.(editor, m);
      }}
      options={{ ...BASE_OPTIONS, ...props.options }}
    />
  );
}

/** FNV-1a over both texts: a cheap identity for the diff's inputs. */
function diffKey(original = "", modified = ""): string {
  let h = 0x811c9dc5;
  for (const text of [original, "\u0000", modified]) {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/**
 * Side-by-side diff (read-only): `original` on the left, `modified` on the right. A change of
 * either text mounts a fresh diff editor instead of swapping the models in place: Monaco's diff
 * computation can race an in-place update and throw ("startLineNumber … cannot be after
 * endLineNumberExclusive …"). The few models a conflict view creates are left to the page.
 */
export function MonacoDiff({ navigable = false, ...props }: DiffEditorProps & { navigable?: boolean }) {
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const [changes, setChanges] = useState<{ at: number; total: number }>({ at: 0, total: 0 });
  const [hideUnchanged, setHideUnchanged] = useState(true);
  const step = (target: "next" | "previous") => {
    const editor = editorRef.current;
    if (!editor || changes.total === 0) return;
    editor.goToDiff(target);
    setChanges((c) => ({
      ...c,
      at: target === "next" ? (c.at % c.total) + 1 : ((c.at + c.total - 2) % c.total) + 1,
    }));
  };
  return (
    <div>
      {navigable ? (
        <div
          className="flex flex-wrap items-center gap-2 border-b border-slate-700 bg-slate-800 px-2 py-1 text-xs text-slate-200"
          data-testid="diff-toolbar"
        >
          <Button onClick={() => step("previous")} variant="outline" size="xs">
            Previous change
          </Button>
          <Button onClick={() => step("next")} variant="outline" size="xs">
            Next change
          </Button>
          <span data-testid="diff-position">
            {changes.total ? `change ${changes.at} of ${changes.total}` : "no changes"}
          </span>
          <Checkbox
            checked={hideUnchanged}
            onChange={(e) => setHideUnchanged(e.target.checked)}
            label="Hide unchanged regions"
            labelClassName="ml-auto gap-1"
          />
        </div>
      ) : null}
      <DiffEditor
        key={diffKey(props.original, props.modified)}
        // @monaco-editor/react disposes the models before resetting the widget on unmount, which
        // Monaco reports as an error; keeping them lets the widget release them in order.
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        language="python"
        theme="vs-dark"
        {...props}
        onMount={(editor, m) => {
          editorRef.current = editor;
          // Open at the first change once the diff is computed, not at line 1 of a long file.
          const once = editor.onDidUpdateDiff(() => {
            once.dispose();
            const total = editor.getLineChanges()?.length ?? 0;
            setChanges({ at: total ? 1 : 0, total });
            if (total) editor.revealFirstDiff();
          });
          props.onMount?.(editor, m);
        }}
        // No gutter menu or revert icons: they are edit actions (meaningless in a read-only diff), and
        // the gutter menu re-evaluates its actions after a remount disposed the context keys
        // ("AbstractContextKeyService has been disposed", seen as a page error in e2e/editor.spec.ts).
        options={{
          ...BASE_OPTIONS,
          readOnly: true,
          originalEditable: false,
          renderSideBySide: true,
          renderGutterMenu: false,
          renderMarginRevertIcon: false,
          hideUnchangedRegions: { enabled: navigable && hideUnchanged },
          ...props.options,
        }}
      />
    </div>
  );
}

"use client";
// Client-only module, loaded through next/dynamic({ ssr: false }): Monaco touches window on import.
// Monaco comes from the local npm package; without loader.config({ monaco }) @monaco-editor/react
// would inject a <script> from a CDN, which air-gapped machines cannot reach.
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/register.all";
import "monaco-editor/languages/definitions/python/register";
import Editor, { loader, type EditorProps } from "@monaco-editor/react";

self.MonacoEnvironment = {
  getWorker() {
    return new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), { type: "module", name: "monaco-editor-worker" });
  },
};
loader.config({ monaco });

export default function MonacoPython(props: EditorProps) {
  return (
    <Editor
      language="python"
      theme="vs-dark"
      {...props}
      options={{ minimap: { enabled: false }, fontSize: 13, automaticLayout: true, scrollBeyondLastLine: false, ...props.options }}
    />
  );
}

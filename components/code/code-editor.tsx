"use client";
import dynamic from "next/dynamic";

const loading = (height: string) => () => (
  <div style={{ height }} className="animate-pulse rounded bg-slate-800" aria-label="Loading editor" />
);

/** Editable Python editor with sandbox markers (Monaco, bundled locally). */
export const CodeEditor = dynamic(() => import("./monaco-python").then((m) => m.MonacoCodeEditor), {
  ssr: false,
  loading: loading("32rem"),
});

/** Read-only diff of two texts. */
export const CodeDiff = dynamic(() => import("./monaco-python").then((m) => m.MonacoDiff), {
  ssr: false,
  loading: loading("24rem"),
});

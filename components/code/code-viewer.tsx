"use client";
import dynamic from "next/dynamic";

const MonacoPython = dynamic(() => import("./monaco-python"), {
  ssr: false,
  loading: () => <div className="h-[32rem] animate-pulse rounded bg-slate-800" aria-label="Loading editor" />,
});

/** Read-only Python source in Monaco (bundled locally, no CDN). */
export function CodeViewer({ source, height = "32rem" }: { source: string; height?: string }) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-700" data-testid="code-viewer">
      <MonacoPython height={height} value={source} options={{ readOnly: true, domReadOnly: true }} />
    </div>
  );
}

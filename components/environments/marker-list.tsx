import type { CodeMarker } from "@/lib/environments/markers";

/** The editor's markers as text, so they can be read without hovering the squiggles. */
export function MarkerList({ markers }: { markers: CodeMarker[] }) {
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

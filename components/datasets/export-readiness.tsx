import Link from "next/link";
import type { ExportFormatName } from "@/lib/export/export.schema";
import type { VersionReadiness } from "@/lib/export/format-readiness";
import type { FormatChoice } from "@/lib/export/formats/format-ids";

/** The action that fixes a format, linked to where it is done (rollouts start on an environment's page). */
function RunRollouts({ environments }: { environments: VersionReadiness["environments"] }) {
  if (environments.length === 0) return null;
  return (
    <span data-testid="readiness-fix">
      {" "}
      Run rollouts on{" "}
      {environments.slice(0, 5).map((e, i) => (
        <span key={e.id}>
          {i > 0 ? ", " : ""}
          <Link href={`/environments/${e.id}`} className="underline">
            {e.name}
          </Link>
        </span>
      ))}
      {environments.length > 5 ? ` and ${environments.length - 5} more` : ""}, then make a new dataset
      version.
    </span>
  );
}

/**
 * Under the export picker, before any click: what the chosen format needs that this dataset version
 * lacks, and the formats that cannot work yet for it.
 */
export function ExportReadiness({
  readiness,
  format,
  formats,
}: {
  readiness: VersionReadiness | undefined;
  format: ExportFormatName;
  formats: FormatChoice[];
}) {
  if (!readiness) return null;
  const chosen = readiness.formats[format];
  const blocked = formats.filter((f) => !readiness.formats[f.id].ready);
  return (
    <div className="space-y-1 text-sm" data-testid="export-readiness">
      {chosen.note ? (
        <p className={chosen.ready ? "text-amber-800" : "text-rose-700"} data-testid="readiness-note">
          {chosen.note}
          {chosen.fix === "RUN_ROLLOUTS" ? <RunRollouts environments={readiness.environments} /> : null}
        </p>
      ) : null}
      {blocked.length ? (
        <p className="text-xs text-slate-500" data-testid="readiness-blocked">
          Not possible yet for this version: {blocked.map((f) => f.label).join(", ")}.
        </p>
      ) : null}
    </div>
  );
}

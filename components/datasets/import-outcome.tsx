import Link from "next/link";
import type { ImportReply } from "@/lib/import/import-form.schema";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";

type Refused = Extract<ImportReply, { ok: false }>;
type Imported = Extract<ImportReply, { ok: true }>;

/**
 * A refused import wrote nothing. When it collided with an existing record, the two ways forward
 * (a new name, or a new version of that record) retry the same files.
 */
export function ImportRefusal({
  error,
  pending,
  onRetry,
}: {
  error: Refused["error"];
  pending: boolean;
  onRetry?: (onExisting: "rename" | "new-version") => void;
}) {
  return (
    <ErrorState
      title="Import refused: nothing was written"
      message={error.located}
      action={
        error.existing && onRetry ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" disabled={pending} onClick={() => onRetry("rename")}>
              Import under a new name
            </Button>
            <Button variant="secondary" disabled={pending} onClick={() => onRetry("new-version")}>
              Import as a new version of {error.record}
            </Button>
          </div>
        ) : undefined
      }
    />
  );
}

/** What an import created; everything imported waits for review, and validators await their proof. */
export function ImportSummary({ summary }: { summary: Imported["summary"] }) {
  return (
    <div
      role="status"
      className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800"
      data-testid="import-summary"
    >
      Imported {summary.environments.length} environment(s) and {summary.scenarios} new scenario(s), all
      waiting for review:
      <ul className="mt-1 list-disc pl-5">
        {summary.imported.map((i) => (
          <li key={i.id}>
            <Link href={`/environments/${i.id}`} className="underline">
              {i.slug}
            </Link>
            {i.asNewVersion ? ` — new version ${i.version}, back in the review queue` : " — new environment"}
          </li>
        ))}
      </ul>
      {summary.proofRunId ? (
        <p>
          Their validators are being proven in the sandbox (
          <Link className="underline" href={`/runs/${summary.proofRunId}`}>
            proof run
          </Link>
          ); until then they cannot enter a dataset as verified.
        </p>
      ) : null}
    </div>
  );
}

"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { startExportAction } from "@/app/datasets/actions";
import { type ExportFormatName } from "@/lib/export/export.schema";
import { type ExportView, isExportTerminal } from "@/lib/export/export-view";
import type { FormatChoice } from "@/lib/export/formats/format-ids";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/inputs";
import { queries } from "@/components/data/queries";
import { queryKeys } from "@/components/data/query-keys";
import { unwrapAction } from "@/components/data/unwrap-action";

function Progress({ e }: { e: ExportView }) {
  const pct = e.total > 0 ? Math.round((100 * e.processed) / e.total) : e.status === "SUCCEEDED" ? 100 : 0;
  return (
    <div className="flex items-center gap-2">
      <div
        className="h-2 w-32 rounded bg-slate-200"
        role="progressbar"
        aria-label="Export progress"
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className={`h-2 rounded ${e.status === "FAILED" ? "bg-rose-500" : "bg-indigo-500"}`}
          style={{ width: `${pct}%` }}
        />
      </div>
      <span className="tabular-nums text-xs text-slate-600" data-testid="export-progress">
        {e.processed}/{e.total}
      </span>
    </div>
  );
}

/** Any version can be exported (newest first in the picker, the latest preselected). */
export function ExportsPanel({
  datasetId,
  versions,
  initial,
  canExport,
  formats,
}: {
  /** The export formats in picker order, from the server's format registry. */
  formats: FormatChoice[];
  datasetId: string;
  versions: { id: string; version: number }[];
  initial: ExportView[];
  canExport: boolean;
}) {
  const client = useQueryClient();
  const [format, setFormat] = useState<ExportFormatName>("ENVSCALER_JSON");
  const [versionId, setVersionId] = useState(versions[0]?.id ?? "");
  // Poll while any export is queued or running; all terminal → stop.
  const query = useQuery({
    ...queries.datasetExports(datasetId),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.every((e) => isExportTerminal(e.status)) ? false : 1000),
  });
  const startExport = useMutation({
    mutationFn: (input: { datasetVersionId: string; format: ExportFormatName }) =>
      unwrapAction(startExportAction(input)),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.exports.ofDataset(datasetId) }),
  });
  const pending = startExport.isPending;
  const error = startExport.error?.message ?? null;

  function start() {
    startExport.mutate({ datasetVersionId: versionId, format });
  }

  return (
    <div className="space-y-3">
      {canExport ? (
        <div className="flex flex-wrap items-end gap-2">
          <Field label="Format" className="text-sm">
            {(control) => (
              <Select
                {...control}
                aria-label="Export format"
                value={format}
                onChange={(e) => setFormat(e.target.value as ExportFormatName)}
                className="ml-2"
              >
                {formats.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Version" className="text-sm">
            {(control) => (
              <Select
                {...control}
                aria-label="Export version"
                value={versionId}
                onChange={(e) => setVersionId(e.target.value)}
                className="ml-2"
              >
                {versions.map((v) => (
                  <option key={v.id} value={v.id}>
                    v{v.version}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button onClick={start} disabled={pending || !versionId} variant="primary" size="md">
            Export
          </Button>
        </div>
      ) : null}
      {error ? <ErrorState title="Could not start the export" message={error} /> : null}
      {query.error ? <ErrorState title="Live updates paused" message={query.error.message} /> : null}
      {query.data.length === 0 ? (
        <EmptyState title="No exports yet">Pick a version and a format, then export.</EmptyState>
      ) : (
        <table className="w-full text-left text-sm" data-testid="exports-table">
          <thead>
            <tr className="text-slate-500">
              <th>Version</th>
              <th>Format</th>
              <th>Status</th>
              <th>Progress</th>
              <th>Size</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {query.data.map((e) => (
              <tr key={e.id} data-testid="export-row" className="align-top">
                <td>v{e.version}</td>
                <td>{formats.find((f) => f.id === e.format)?.label ?? e.format}</td>
                <td data-testid="export-status">
                  <StatusBadge status={e.status} />
                  {e.errorMessage ? <p className="text-xs text-rose-700">{e.errorMessage}</p> : null}
                </td>
                <td>
                  <Progress e={e} />
                </td>
                <td className="tabular-nums">
                  {e.byteSize !== null ? `${(e.byteSize / 1024).toFixed(1)} KiB` : "—"}
                </td>
                <td>
                  {e.status === "SUCCEEDED" ? (
                    <a className="text-indigo-700 underline" href={`/api/exports/${e.id}/download`} download>
                      Download
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

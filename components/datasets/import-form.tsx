"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ImportReply } from "@/lib/import/import-form.schema";
import { ErrorState } from "@/components/ui/states";
import { Button } from "@/components/ui/button";

const inputClass = "mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm";
/** Chromium/Firefox/Safari all support folder picking through this non-standard attribute. */
const FOLDER_PICKER = { webkitdirectory: "" } as Record<string, string>;

const relativePath = (f: File) => f.webkitRelativePath || f.name;

export function ImportForm() {
  const router = useRouter();
  const [files, setFiles] = useState<File[]>([]);
  const [reply, setReply] = useState<ImportReply | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const [lastForm, setLastForm] = useState<FormData | null>(null);

  async function submit(form: FormData, onExisting: "refuse" | "rename" | "new-version" = "refuse") {
    setLastForm(form);
    const body = new FormData();
    // A folder pick brings every file in it; only these kinds take part in an import.
    for (const f of files.filter((f) => /\.(json|py)$/.test(f.name))) {
      body.append("files", f, f.name);
      body.append("paths", relativePath(f));
    }
    for (const key of ["className", "envId"]) {
      const value = form.get(key);
      if (typeof value === "string" && value) body.append(key, value);
    }
    body.append("onExisting", onExisting);
    setPending(true);
    setFailure(null);
    try {
      const res = await fetch("/api/imports", { method: "POST", body });
      const json = (await res.json()) as ImportReply | { error: { message: string } };
      if ("ok" in json) {
        setReply(json);
        if (json.ok) router.refresh();
      } else {
        setReply(null);
        setFailure(json.error.message);
      }
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e));
    } finally {
      setPending(false);
    }
  }

  return (
    <form action={(form) => submit(form)} className="space-y-3" aria-label="Import">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm">
          EnvScaler JSON or environment files (env metadata + scenario files, or environment.py +
          scenarios.json [+ meta.json])
          <input
            type="file"
            multiple
            accept=".json,.py"
            aria-label="Import files"
            className="mt-1 block"
            onChange={(e) => setFiles([...(e.target.files ?? [])])}
          />
        </label>
        <label className="block text-sm">
          …or an environment folder
          <input
            type="file"
            {...FOLDER_PICKER}
            aria-label="Import folder"
            className="mt-1 block"
            onChange={(e) => setFiles([...(e.target.files ?? [])])}
          />
        </label>
        <label className="block text-sm">
          Environment id{" "}
          <span className="text-slate-500">(Python files picked one by one; default: the folder name)</span>
          <input name="envId" className={inputClass} />
        </label>
        <label className="block text-sm">
          Class name <span className="text-slate-500">(default: meta.json or the first class)</span>
          <input name="className" className={inputClass} />
        </label>
      </div>
      {files.length ? (
        <p className="text-xs text-slate-500" data-testid="import-selection">
          {files.map(relativePath).join(", ")}
        </p>
      ) : null}
      <Button type="submit" disabled={pending || files.length === 0} variant="primary" size="md">
        {pending ? "Importing…" : "Import"}
      </Button>
      {failure ? <ErrorState title="Import failed" message={failure} /> : null}
      {reply && !reply.ok ? (
        <ErrorState
          title="Import refused: nothing was written"
          message={reply.error.located}
          action={
            reply.error.existing && lastForm ? (
              <div className="flex flex-wrap gap-2">
                <Button
                  disabled={pending}
                  onClick={() => void submit(lastForm, "rename")}
                  variant="secondary"
                  size="sm"
                >
                  Import under a new name
                </Button>
                <Button
                  disabled={pending}
                  onClick={() => void submit(lastForm, "new-version")}
                  variant="secondary"
                  size="sm"
                >
                  Import as a new version of {reply.error.record}
                </Button>
              </div>
            ) : undefined
          }
        />
      ) : null}
      {reply?.ok ? (
        <div
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800"
          data-testid="import-summary"
        >
          Imported {reply.summary.environments.length} environment(s) and {reply.summary.scenarios} new
          scenario(s), all waiting for review:
          <ul className="mt-1 list-disc pl-5">
            {reply.summary.imported.map((i) => (
              <li key={i.id}>
                <Link href={`/environments/${i.id}`} className="underline">
                  {i.slug}
                </Link>
                {i.asNewVersion
                  ? ` — new version ${i.version}, back in the review queue`
                  : " — new environment"}
              </li>
            ))}
          </ul>
          {reply.summary.proofRunId ? (
            <p>
              Their validators are being proven in the sandbox (
              <Link className="underline" href={`/runs/${reply.summary.proofRunId}`}>
                proof run
              </Link>
              ); until then they cannot enter a dataset as verified.
            </p>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ImportReply } from "@/lib/import/import-form.schema";
import { ErrorState } from "@/components/ui/states";
import { ImportFields } from "./import-fields";
import { ImportRefusal, ImportSummary } from "./import-outcome";
import { Button } from "@/components/ui/button";

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
      <ImportFields onFiles={setFiles} />
      {files.length ? (
        <p className="text-xs text-slate-500" data-testid="import-selection">
          {files.map(relativePath).join(", ")}
        </p>
      ) : null}
      <Button type="submit" variant="primary" size="md" disabled={pending || files.length === 0}>
        {pending ? "Importing…" : "Import"}
      </Button>
      {failure ? <ErrorState title="Import failed" message={failure} /> : null}
      {reply && !reply.ok ? (
        <ImportRefusal
          error={reply.error}
          pending={pending}
          onRetry={lastForm ? (onExisting) => void submit(lastForm, onExisting) : undefined}
        />
      ) : null}
      {reply?.ok ? <ImportSummary summary={reply.summary} /> : null}
    </form>
  );
}

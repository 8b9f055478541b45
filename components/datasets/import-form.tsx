"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { fetchApi } from "@/lib/api/fetch-api";
import { API } from "@/lib/api/routes";
import { ErrorState } from "@/components/ui/states";
import { ImportFields } from "./import-fields";
import { ImportRefusal, ImportSummary } from "./import-outcome";
import { Button } from "@/components/ui/button";
import { queryKeys } from "@/components/data/query-keys";

const relativePath = (f: File) => f.webkitRelativePath || f.name;

export function ImportForm() {
  const router = useRouter();
  const [files, setFiles] = useState<File[]>([]);
  const client = useQueryClient();
  // A refused file is a 200 with `ok: false` (data, shown below); only a failed request is an error.
  const upload = useMutation({
    mutationFn: (body: FormData) => fetchApi(API.importFiles, body),
    onSuccess: (reply) => {
      if (!reply.ok) return;
      void client.invalidateQueries({ queryKey: queryKeys.environments.all });
      // The pages around the form (environment and dataset lists) are server-rendered.
      router.refresh();
    },
  });
  const reply = upload.data ?? null;
  const failure = upload.error?.message ?? null;
  const pending = upload.isPending;

  const [lastForm, setLastForm] = useState<FormData | null>(null);

  function submit(form: FormData, onExisting: "refuse" | "rename" | "new-version" = "refuse") {
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
    upload.mutate(body);
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

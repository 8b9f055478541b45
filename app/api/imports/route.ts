import { revalidatePath } from "next/cache";
import { z } from "zod";
import { API } from "@/lib/api/routes";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import { ImportFormSchema } from "@/lib/import/import-form.schema";
import { formatImportError } from "@/lib/import/import.schema";
import { importFiles } from "@/lib/import/server/import-files";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { getSandboxRunner } from "@/lib/sandbox";
import { apiRoute } from "../api-route";
import { requireMediaType, respondWith } from "../respond";

export const dynamic = "force-dynamic";

const ImportRequestSchema = ImportFormSchema.extend({
  files: z
    .array(z.object({ name: z.string(), text: z.string() }))
    .min(1, "Choose at least one file to import."),
});

/** The multipart upload as plain fields; proxy.ts has refused uploads over ENVSTUDIO_IMPORT_MAX_BYTES with 413. */
async function readUpload(request: Request) {
  requireMediaType(request, "multipart/form-data");
  const form = await request.formData().catch(() => {
    throw new AppError("INVALID_INPUT", "The upload is not well-formed multipart/form-data.");
  });
  const uploads = form.getAll("files").filter((f): f is File => typeof f !== "string");
  // `paths` repeats each file's relative path: multipart filenames lose folders in some clients.
  const paths = form.getAll("paths");
  const files = await Promise.all(
    uploads.map(async (f, i) => ({
      name: typeof paths[i] === "string" && paths[i] ? paths[i] : f.name,
      text: await f.text(),
    })),
  );
  return {
    className: form.get("className") ?? undefined,
    envId: form.get("envId") ?? undefined,
    onExisting: form.get("onExisting") ?? undefined,
    files,
  };
}

/**
 * POST /api/imports (multipart: `files` … with `paths`, optional `className`, `envId`, `onExisting`) → a summary, or the first
 * located error with nothing written. A route rather than a server action: action bodies are
 * capped at 1 MB and EnvScaler's released metadata files are larger. Each part's filename keeps the
 * folder (`library-lending/environment.py`): a Python folder's name is its env_id.
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: ImportRequestSchema, input: readUpload },
  async ({ files, ...options }) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    // The import enqueues a proof run for what it wrote; the studio's worker proves it in the sandbox.
    const result = await importFiles(
      db,
      { sandbox: getSandboxRunner(), send: sendJob },
      project.id,
      files,
      options,
    );
    // A refused file is an expected outcome (data for the reviewer), so it is a 200 with ok: false,
    // not an HTTP error the browser would log as a failed request.
    if (!result.ok)
      return respondWith(API.importFiles, {
        ok: false,
        error: { ...result.error, located: formatImportError(result.error) },
      });
    revalidatePath("/environments");
    return respondWith(API.importFiles, { ok: true, summary: result.value });
  },
);

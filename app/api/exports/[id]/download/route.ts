import { Readable } from "node:stream";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { openExportDownload } from "@/lib/export/server/open-export-download";
import { apiRoute } from "../../../api-route";

export const dynamic = "force-dynamic";

const DownloadInputSchema = z.object({ id: z.string().min(1), file: z.string().optional() });

/**
 * GET /api/exports/:id/download[?file=rel/path] → the export's file, or its folder as a tar,
 * streamed from disk (exports can be gigabytes). 404 until the export has succeeded.
 */
export const GET = apiRoute(
  {
    role: "VIEWER",
    schema: DownloadInputSchema,
    input: (request, params: { id: string }) => ({
      id: params.id,
      file: request.nextUrl.searchParams.get("file") ?? undefined,
    }),
  },
  async ({ id, file }) => {
    const download = await openExportDownload(getDb(), id, file);
    return new Response(Readable.toWeb(download.body) as ReadableStream<Uint8Array>, {
      headers: {
        "content-type": download.contentType,
        "content-disposition": `attachment; filename="${download.filename.replaceAll('"', "")}"`,
        "cache-control": "no-store",
      },
    });
  },
);

import { Readable } from "node:stream";
import { AppError } from "@/lib/core/errors";
import { currentUser } from "@/lib/auth/server/require-role";
import { roleAtLeast } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { openExportDownload } from "@/lib/export/server/open-export-download";
import { errorResponse } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * GET /api/exports/:id/download[?file=rel/path] → the export's file, or its folder as a tar,
 * streamed from disk (exports can be gigabytes). 404 until the export has succeeded.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const user = await currentUser();
    if (!roleAtLeast(user.role, "VIEWER")) throw new AppError("FORBIDDEN", "Downloading exports needs the viewer role.");
    const { id } = await params;
    const file = new URL(request.url).searchParams.get("file") ?? undefined;
    const download = await openExportDownload(getDb(), id, file);
    return new Response(Readable.toWeb(download.body) as ReadableStream<Uint8Array>, {
      headers: {
        "content-type": download.contentType,
        "content-disposition": `attachment; filename="${download.filename.replaceAll('"', "")}"`,
        "cache-control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

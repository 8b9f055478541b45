import { z } from "zod";
import { API } from "@/lib/api/routes";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { undoLastDecision } from "@/lib/review/server/undo-decision";
import { apiRoute } from "../../api-route";
import { readJsonBody, respondWith } from "../../respond";

export const dynamic = "force-dynamic";

/** The body says nothing, and anything else (`null`, `[]`, a stray field) is refused, not read as a request to undo. */
const UndoInputSchema = z.strictObject({});

/**
 * POST /api/review/undo `{}`: undoes the caller's last accept/reject (logged as an UNDO decision).
 * Like every JSON write it must be application/json, which a cross-site form or no-cors fetch
 * cannot send.
 */
export const POST = apiRoute(
  { role: "REVIEWER", schema: UndoInputSchema, input: readJsonBody },
  async (_input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    return respondWith(API.reviewUndo, await undoLastDecision(db, project.id, user), { status: 201 });
  },
);

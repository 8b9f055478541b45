import { NextResponse } from "next/server";
import { getDb } from "@/lib/db";
import { DecideItemInputSchema } from "@/lib/review/review.schema";
import { decideItem } from "@/lib/review/server/decide-item";
import { apiRoute } from "../../api-route";
import { readJsonBody } from "../../respond";

export const dynamic = "force-dynamic";

/** POST /api/review/decisions {kind, id, decision, reason, versionId?}: the queue's accept/reject for scripts. */
export const POST = apiRoute(
  { role: "REVIEWER", schema: DecideItemInputSchema, input: readJsonBody },
  async (input, user) => NextResponse.json(await decideItem(getDb(), input, user), { status: 201 }),
);

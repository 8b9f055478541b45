import { NextResponse } from "next/server";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

/**
 * Readiness probe, public by design (proxy.ts lets it through without a session): it answers only
 * ok / not ok. Why the database is unreachable (hosts, ports, driver messages) goes to the server
 * log, never to an anonymous caller.
 */
export async function GET() {
  try {
    await getDb().$queryRaw`select 1 as ok`;
    return NextResponse.json({ ok: true });
  } catch (error) {
    console.error("health check: database unreachable", error);
    return NextResponse.json({ ok: false }, { status: 503 });
  }
}

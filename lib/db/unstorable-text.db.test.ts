import { describe, expect, it } from "vitest";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { isUnstorableTextError } from "./unstorable-text";

const t = useTestDatabase();

describe("text PostgreSQL cannot store", () => {
  it("is recognised for a NUL character in text and a lone surrogate in jsonb, and only for those", async () => {
    const { id: projectId } = await createTestProject(t.db, "unstorable");
    const nul = await t.db.project
      .update({ where: { id: projectId }, data: { name: "a\u0000b" } })
      .catch((e: unknown) => e);
    expect(isUnstorableTextError(nul)).toBe(true);
    const surrogate = await t.db.setting
      .create({ data: { key: `k-${projectId}`, value: { text: "\ud800" } } })
      .catch((e: unknown) => e);
    expect(isUnstorableTextError(surrogate)).toBe(true);
    const missing = await t.db.project
      .update({ where: { id: "missing" }, data: { name: "x" } })
      .catch((e: unknown) => e);
    expect(isUnstorableTextError(missing)).toBe(false);
  });
});

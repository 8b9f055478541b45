/**
 * The quality page at the size of a real check: 30 probes, a filter for the doubtful ones, one
 * click to confirm the judge on the probes shown, and no horizontal scroll at 1,440 px even with
 * long audit entries full of internal ids.
 */
import { createEnvironment, createQualityCheck } from "../prisma/seed/factories";
import { E2E_ADMIN } from "../playwright.config";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));
test.use({ viewport: { width: 1440, height: 900 } });

const VERDICTS = [
  ...Array<"PASS">(20).fill("PASS"),
  ...Array<"WARNING">(6).fill("WARNING"),
  ...Array<"FAIL">(4).fill("FAIL"),
];

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("quality page: 30 probes, filter to warnings and fails, confirm the judge on the shown ones, no horizontal scroll", async ({
  page,
}) => {
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const env = await createEnvironment(db, projectId, { status: "IN_REVIEW", name: unique("quality-scale") });
  created.push(env.id);
  const check = await createQualityCheck(db, env.currentVersionId!, VERDICTS);
  const probes = [...check.probes].sort((a, b) => a.index - b.index);
  // An audit entry as accepts write them: ids without spaces, which once widened the page.
  const admin = await db.user.findUniqueOrThrow({ where: { email: E2E_ADMIN.email } });
  const ids = Array.from({ length: 24 }, (_, i) => `cm${i}${"x".repeat(23)}`);
  await db.reviewDecision.create({
    data: {
      projectId,
      actorId: admin.id,
      targetType: "ENVIRONMENT_VERSION",
      targetId: env.currentVersionId!,
      decision: "COMMENT",
      before: { status: "IN_REVIEW", acceptedVersionId: null },
      after: { status: "IN_REVIEW", validatorVersionIds: ids, note: "y".repeat(400) },
    },
  });

  await page.goto(`/environments/${env.id}/quality`);
  const cards = page.getByTestId("probe");
  await expect(cards).toHaveCount(30);
  await expect(page.getByTestId("audit-changes").first()).toContainText("note:");
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  await page.getByRole("button", { name: "Warnings & fails (10)" }).click();
  await expect(cards).toHaveCount(10);
  await expect(page.getByRole("button", { name: "Warnings & fails (10)" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // Another reviewer overrides one of the shown probes after this page was rendered.
  const overridden = probes[20]!;
  await db.qualityProbe.update({ where: { id: overridden.id }, data: { reviewerVerdict: "PASS" } });

  await page.getByRole("button", { name: "Confirm the judge on 10 unreviewed" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Confirmed 9 verdicts; 1 had meanwhile been judged by a reviewer and were left as they are.",
  );
  const after = await db.qualityProbe.findMany({
    where: { qualityCheckId: check.id },
    orderBy: { index: "asc" },
  });
  expect(after.map((p) => p.reviewerVerdict)).toEqual([
    ...Array<null>(20).fill(null),
    "PASS",
    ...Array<string>(5).fill("WARNING"),
    ...Array<string>(4).fill("FAIL"),
  ]);
  // Nothing left to confirm among the shown probes; the counts follow.
  await expect(page.getByRole("button", { name: /Confirm the judge on/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Not reviewed (20)" }).click();
  await expect(cards).toHaveCount(20);
  await expect(page.getByTestId("audit-log")).toContainText("reviewerVerdict: — → FAIL");
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});

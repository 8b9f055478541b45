/**
 * The review queue decided two ways: with the mouse only (the decision bar's buttons, clicking items
 * in the list) and with the keyboard only (j/k/a/r/u). Both send the same decisions, and the preview
 * of a fresh environment shows what it is: description, tools and code.
 */
import { createEnvironment } from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";

// Monaco starts cold in the preview; a busy 2-core machine needs the room.
test.describe.configure({ timeout: 180_000 });

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

const TOOL = {
  type: "function",
  function: {
    name: "borrow_book",
    description: "Lend a book to a member if a copy is free.",
    parameters: {
      type: "object",
      properties: { book_id: { type: "string", description: "the catalogue id" } },
      required: ["book_id"],
    },
  },
};
const SOURCE = `class Library:\n    def borrow_book(self, book_id: str) -> dict:\n        """Lend a book to a member if a copy is free."""\n        return {"success": True}\n`;

/** Three environments waiting for review under one fresh domain, in queue order (oldest first). */
async function threeInReview(prefix: string) {
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const domain = unique(prefix);
  const envs = [];
  for (const name of ["alpha", "beta", "gamma"]) {
    const env = await createEnvironment(db, projectId, {
      status: "IN_REVIEW",
      domain,
      name: `${domain} ${name}`,
      description: `The ${name} lending desk of a small library.`,
      source: SOURCE,
      tools: [TOOL],
    });
    created.push(env.id);
    envs.push(env);
  }
  return { domain, envs };
}

/** The review log of environments' (only) versions, oldest first. */
const decisionsOn = (envs: { currentVersionId: string | null }[]) =>
  e2eDb().reviewDecision.findMany({
    where: { targetType: "ENVIRONMENT_VERSION", targetId: { in: envs.map((e) => e.currentVersionId!) } },
    orderBy: { createdAt: "asc" },
    select: { targetId: true, decision: true, reason: true },
  });

test("review queue with the mouse only: the preview shows the environment, buttons accept, reject and undo", async ({
  page,
}) => {
  const { domain, envs } = await threeInReview("mouse");
  const [alpha, beta, gamma] = envs;
  await page.goto(`/review?domain=${domain}&kind=environment`);
  const items = page.getByTestId("queue-item");
  await expect(items).toHaveCount(3);

  const preview = page.getByTestId("queue-preview");
  await expect(preview.getByTestId("preview-description")).toHaveText(
    "The alpha lending desk of a small library.",
  );
  await expect(preview.getByTestId("tool-row")).toContainText("borrow_book");
  await expect(preview.getByTestId("tool-row")).toContainText("Lend a book to a member if a copy is free.");
  await expect(preview.getByTestId("tool-row")).toContainText("book_id string — the catalogue id");
  await expect(preview.getByTestId("preview-code-label")).toContainText("Code of v1 (Counter)");
  // Monaco loads on first use (slow on a busy machine).
  await expect(preview.getByTestId("preview-code").locator(".view-lines")).toContainText("def borrow_book", {
    timeout: 60_000,
  });
  await expect(preview).not.toContainText("No earlier code to compare with.");

  const bar = page.getByTestId("queue-actions");
  await expect(bar.getByRole("button", { name: /^Undo/ })).toBeDisabled();
  await bar.getByRole("button", { name: /^Accept/ }).click();
  await expect(page.getByTestId("queue-message")).toContainText(`Accepted: ${domain} alpha`);
  await expect(items).toHaveCount(2);

  // Pick gamma in the list with the mouse, reject it with a reason, then undo from the bar.
  await items.filter({ hasText: "gamma" }).getByTestId("cell-kind").click();
  await expect(items.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(preview.getByTestId("preview-description")).toHaveText(
    "The gamma lending desk of a small library.",
  );
  await bar.getByRole("button", { name: /^Reject/ }).click();
  await page.getByLabel("Rejection reason").fill("the borrow tool never checks the member");
  await page.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(page.getByTestId("queue-message")).toContainText(`Rejected: ${domain} gamma`);
  await expect(items).toHaveCount(1);
  await bar.getByRole("button", { name: /^Undo/ }).click();
  await expect(page.getByTestId("queue-message")).toContainText(
    `Undone: ${domain} gamma is back in the queue.`,
  );
  await expect(items).toHaveCount(2);

  const db = e2eDb();
  const status = async (id: string) => (await db.environment.findUniqueOrThrow({ where: { id } })).status;
  expect(await status(alpha!.id)).toBe("ACCEPTED");
  expect(await status(beta!.id)).toBe("IN_REVIEW");
  expect(await status(gamma!.id)).toBe("IN_REVIEW");
  expect(await decisionsOn([alpha!, beta!, gamma!])).toEqual([
    { targetId: alpha!.currentVersionId, decision: "ACCEPT", reason: "" },
    {
      targetId: gamma!.currentVersionId,
      decision: "REJECT",
      reason: "the borrow tool never checks the member",
    },
    { targetId: gamma!.currentVersionId, decision: "UNDO", reason: "undo of reject" },
  ]);
});

test("review queue with the keyboard only: j/k move, a accepts, r rejects with Enter, u undoes once", async ({
  page,
}) => {
  const { domain, envs } = await threeInReview("keys");
  const [alpha, beta, gamma] = envs;
  await page.goto(`/review?domain=${domain}&kind=environment`);
  const items = page.getByTestId("queue-item");
  await expect(items).toHaveCount(3);
  await expect(page.getByTestId("claim-state")).toHaveText("yours while this page is open");

  await page.keyboard.press("j");
  await expect(items.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("preview-description")).toHaveText(
    "The beta lending desk of a small library.",
  );
  await page.keyboard.press("a");
  await expect(page.getByTestId("queue-message")).toContainText(`Accepted: ${domain} beta`);
  await expect(items).toHaveCount(2);

  await page.keyboard.press("k");
  await expect(items.nth(0)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("r");
  await page.keyboard.insertText("two tools share one docstring");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("queue-message")).toContainText(`Rejected: ${domain} alpha`);
  await expect(items).toHaveCount(1);

  await page.keyboard.press("u");
  await expect(page.getByTestId("queue-message")).toContainText(
    `Undone: ${domain} alpha is back in the queue.`,
  );
  await expect(items).toHaveCount(2);
  // Only the latest decision can be undone: a second u says so and changes nothing.
  await page.keyboard.press("u");
  await expect(page.getByTestId("queue-message")).toContainText("Nothing to undo");

  const db = e2eDb();
  const status = async (id: string) => (await db.environment.findUniqueOrThrow({ where: { id } })).status;
  expect(await status(alpha!.id)).toBe("IN_REVIEW");
  expect(await status(beta!.id)).toBe("ACCEPTED");
  expect(await status(gamma!.id)).toBe("IN_REVIEW");
  expect((await decisionsOn([alpha!, beta!, gamma!])).map((d) => d.decision)).toEqual([
    "ACCEPT",
    "REJECT",
    "UNDO",
  ]);
});

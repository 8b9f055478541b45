import { expect, test } from "./fixtures";

test("tool playground: run tools from generated forms, see observation and state diff, reset", async ({
  page,
}) => {
  await page.goto("/environments/library-lending/playground");
  await expect(page.getByLabel("Initial state")).toHaveValue(/.+/);
  await expect(page.getByTestId("playground-state")).toContainText("Alice Moreno");

  await page.getByRole("button", { name: "get_member", exact: true }).click();
  await page.getByTestId("tool-form").getByLabel("member_id").fill("M001");
  await page.getByRole("button", { name: "Run tool" }).click();
  await expect(page.getByTestId("playground-step")).toHaveCount(1);
  await expect(page.getByTestId("step-observation").first()).toContainText("alice.moreno@example.org");
  await expect(page.getByTestId("step-diff").first()).toHaveText("No state change.");

  // A mutating tool: the diff and the state after the step show the change.
  await page.getByRole("button", { name: "pay_fines", exact: true }).click();
  await page.getByTestId("tool-form").getByLabel("member_id").fill("M001");
  await page.getByTestId("tool-form").getByLabel("amount").fill("0.75");
  await page.getByRole("button", { name: "Run tool" }).click();
  await expect(page.getByTestId("playground-step")).toHaveCount(2);
  await expect(page.getByTestId("step-diff").nth(1)).toContainText("members.M001.fines_due: 0.75 → 0");

  // Raw JSON arguments and a tool error observation.
  await page.getByRole("button", { name: "Raw JSON" }).click();
  await page.getByLabel("Arguments (JSON)").fill('{"member_id": "M404", "amount": 1}');
  await page.getByRole("button", { name: "Run tool" }).click();
  await expect(page.getByTestId("playground-step")).toHaveCount(3);
  await expect(page.getByTestId("step-observation").nth(2)).toContainText("false");

  await page.getByRole("button", { name: "Reset" }).click();
  await expect(page.getByTestId("playground-step")).toHaveCount(0);

  // A custom initial state is validated as JSON before anything runs.
  await page.getByLabel("Initial state").selectOption("custom");
  await page.getByLabel("Custom initial state").fill("{ not json");
  await expect(page.getByText(/Not valid JSON/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Run tool" })).toBeDisabled();
});

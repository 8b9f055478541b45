/** The dataset page's export list: an unknown dataset is NOT_FOUND (a 404 for its polling route), not an empty list. */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { findDatasetExports } from "./find-exports";

const t = useTestDatabase();

describe("findDatasetExports", () => {
  it("refuses a dataset id that does not exist", async () => {
    await expect(findDatasetExports(t.db, "no-such-dataset")).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Dataset no-such-dataset does not exist.",
    });
  });
});

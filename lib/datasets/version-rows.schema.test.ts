import { describe, expect, it } from "vitest";
import {
  MAX_ROWS_PAGE_SIZE,
  TASK_EXCERPT_LENGTH,
  taskExcerpt,
  VersionRowsQuerySchema,
  versionRowsSearch,
} from "./version-rows.schema";

describe("the row browser's query", () => {
  it("defaults to the first page of 25 and treats an empty search as none", () => {
    expect(VersionRowsQuerySchema.parse({ q: "  " })).toEqual({ q: undefined, page: 1, pageSize: 25 });
  });

  it("round-trips through its query string, defaults left out", () => {
    const query = VersionRowsQuerySchema.parse({
      q: "refund & return",
      split: "TEST",
      page: "3",
      pageSize: "50",
    });
    const search = versionRowsSearch(query);
    expect(search).toBe("q=refund+%26+return&split=TEST&page=3&pageSize=50");
    expect(VersionRowsQuerySchema.parse(Object.fromEntries(new URLSearchParams(search)))).toEqual(query);
    expect(versionRowsSearch(VersionRowsQuerySchema.parse({}))).toBe("");
  });

  it("caps the page size", () => {
    expect(VersionRowsQuerySchema.safeParse({ pageSize: MAX_ROWS_PAGE_SIZE }).success).toBe(true);
    expect(VersionRowsQuerySchema.safeParse({ pageSize: MAX_ROWS_PAGE_SIZE + 1 }).success).toBe(false);
  });
});

describe("taskExcerpt", () => {
  it("collapses whitespace and keeps a short task whole", () => {
    expect(taskExcerpt("  Book\n\ta   room ")).toBe("Book a room");
  });

  it("cuts a long task at a word and marks the cut", () => {
    const task = "word ".repeat(100);
    const excerpt = taskExcerpt(task);
    expect(excerpt.endsWith("word…")).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(TASK_EXCERPT_LENGTH + 1);
  });

  it("cuts a long task without spaces at the length", () => {
    expect(taskExcerpt("x".repeat(500))).toBe(`${"x".repeat(TASK_EXCERPT_LENGTH)}…`);
  });
});

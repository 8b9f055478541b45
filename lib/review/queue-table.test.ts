import { describe, expect, it } from "vitest";
import {
  EMPTY_SELECTION,
  isSelected,
  nextSort,
  QUEUE_COLUMNS,
  queueHref,
  rangeBetween,
  readColumns,
  selectionSize,
  setSelected,
  sortChange,
  sortQueue,
} from "./queue-table";
import type { QueueItem } from "./review.schema";

const item = (id: string, over: Partial<QueueItem> = {}): QueueItem => ({
  kind: "environment",
  id,
  title: id,
  detail: "",
  status: "IN_REVIEW",
  domain: "retail",
  reasons: [],
  runId: null,
  environmentId: id,
  seen: { kind: "environment", versionId: `v-${id}` },
  href: "",
  editHref: "",
  risks: [],
  changed: null,
  ...over,
});

describe("the queue table", () => {
  it("reads the stored column choice, falling back to every column", () => {
    expect(readColumns(null)).toEqual([...QUEUE_COLUMNS]);
    expect(readColumns("not json")).toEqual([...QUEUE_COLUMNS]);
    expect(readColumns('["bogus"]')).toEqual([...QUEUE_COLUMNS]);
    expect(readColumns('["run","kind"]')).toEqual(["kind", "run"]);
    expect(readColumns("[]")).toEqual([]);
  });

  it("sorts stably, numbers in names by value, and flips on a second click", () => {
    const rows = [item("b 10", { domain: "x" }), item("a", { domain: "y" }), item("b 9", { domain: "x" })];
    expect(sortQueue(rows, { by: "title", dir: "asc" }).map((r) => r.id)).toEqual(["a", "b 9", "b 10"]);
    expect(sortQueue(rows, { by: "domain", dir: "asc" }).map((r) => r.id)).toEqual(["b 10", "b 9", "a"]);
    expect(sortQueue(rows, { by: "domain", dir: "desc" }).map((r) => r.id)).toEqual(["a", "b 10", "b 9"]);
    expect(sortQueue(rows, { by: "queue", dir: "asc" })).toBe(rows);
    expect(nextSort({ by: "title", dir: "asc" }, "title")).toEqual({ by: "title", dir: "desc" });
    expect(nextSort({ by: "title", dir: "desc" }, "kind")).toEqual({ by: "kind", dir: "asc" });
  });

  it("selects ranges both ways and keeps exceptions when every matching item is selected", () => {
    expect(rangeBetween([0, 1, 2, 3, 4], 3, 1)).toEqual([1, 2, 3]);
    const ticked = setSelected(EMPTY_SELECTION, ["a", "b"], true);
    expect(isSelected(ticked, "a")).toBe(true);
    expect(selectionSize(ticked, 500)).toBe(2);
    const all = setSelected({ allMatching: true, keys: new Set() }, ["a"], false);
    expect(isSelected(all, "a")).toBe(false);
    expect(isSelected(all, "z")).toBe(true);
    expect(selectionSize(all, 500)).toBe(499);
    expect(selectionSize(setSelected(all, ["a"], true), 500)).toBe(500);
  });

  it("puts the sort in the queue's URL beside the filter, leaving the defaults out", () => {
    const filter = { kind: "environment" as const, domain: "retail" };
    expect(queueHref(filter, sortChange({ by: "queue", dir: "asc" }, "title"))).toBe(
      "/review?kind=environment&domain=retail&sort=title",
    );
    expect(queueHref({ ...filter, sort: "title" }, sortChange({ by: "title", dir: "asc" }, "title"))).toBe(
      "/review?kind=environment&domain=retail&sort=title&dir=desc",
    );
    expect(queueHref({ sort: "title", dir: "desc" }, { q: "x" })).toBe("/review?sort=title&dir=desc&q=x");
    expect(queueHref({ q: "x" }, { q: "" })).toBe("/review");
  });
});

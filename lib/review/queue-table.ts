/**
 * The review queue as a table: which columns can be shown (the choice is remembered in the browser),
 * how rows sort, and the selection a shift-click makes. Pure: the components call these.
 */
import { z } from "zod";
import type { QueueFilter, QueueItem } from "./review.schema";

/** Optional columns; the item's title (with why it is here) is always shown. */
export const QUEUE_COLUMNS = ["kind", "status", "domain", "detail", "run"] as const;
export type QueueColumn = (typeof QUEUE_COLUMNS)[number];
export const COLUMN_LABEL: Record<QueueColumn, string> = {
  kind: "Kind",
  status: "Status",
  domain: "Domain",
  detail: "Detail",
  run: "Run",
};
export const COLUMNS_STORAGE_KEY = "envstudio-review-columns";

/** The stored choice, or every column when nothing (or something unreadable) is stored. */
export function readColumns(stored: string | null): QueueColumn[] {
  if (!stored) return [...QUEUE_COLUMNS];
  try {
    const parsed = z.array(z.enum(QUEUE_COLUMNS)).safeParse(JSON.parse(stored));
    return parsed.success ? QUEUE_COLUMNS.filter((c) => parsed.data.includes(c)) : [...QUEUE_COLUMNS];
  } catch {
    return [...QUEUE_COLUMNS];
  }
}

/**
 * "queue": the order the server gives (oldest first per kind). The others go in the URL and are
 * applied on the server too (find-review-queue.ts), so the loaded rows are the first in that order;
 * the page sorts the loaded rows the same way to interleave the kinds.
 */
export const SORT_KEYS = ["queue", "title", "kind", "status", "domain"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type QueueSort = { by: SortKey; dir: "asc" | "desc" };

const text = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "base", numeric: true });

const compareBy: Record<Exclude<SortKey, "queue">, (a: QueueItem, b: QueueItem) => number> = {
  title: (a, b) => text(a.title, b.title),
  kind: (a, b) => text(a.kind, b.kind),
  status: (a, b) => text(a.status, b.status),
  domain: (a, b) => text(a.domain, b.domain),
};

/** A stable sort: equal rows keep the queue's order. */
export function sortQueue(items: QueueItem[], sort: QueueSort): QueueItem[] {
  if (sort.by === "queue") return sort.dir === "asc" ? items : [...items].reverse();
  const compare = compareBy[sort.by];
  const sign = sort.dir === "asc" ? 1 : -1;
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => sign * compare(a.item, b.item) || a.i - b.i)
    .map((r) => r.item);
}

/** Clicking a sorted column's header flips it; another column sorts ascending. */
export const nextSort = (sort: QueueSort, by: SortKey): QueueSort =>
  sort.by === by ? { by, dir: sort.dir === "asc" ? "desc" : "asc" } : { by, dir: "asc" };

/** The rows a shift-click covers: from the last clicked row to this one, both included. */
export function rangeBetween<T>(rows: T[], from: number, to: number): T[] {
  const [lo, hi] = from <= to ? [from, to] : [to, from];
  return rows.slice(Math.max(lo, 0), hi + 1);
}

/**
 * What is selected: ticked rows, or every item matching the filter (on the server, beyond the
 * loaded rows) minus the rows unticked since. `keys` holds the ticked rows in the first case and the
 * unticked ones in the second.
 */
export type QueueSelection = { allMatching: boolean; keys: ReadonlySet<string> };
export const EMPTY_SELECTION: QueueSelection = { allMatching: false, keys: new Set() };

export const isSelected = (s: QueueSelection, key: string) => s.allMatching !== s.keys.has(key);

export function setSelected(s: QueueSelection, keys: string[], on: boolean): QueueSelection {
  const next = new Set(s.keys);
  // In "all matching" mode the set lists the exceptions, so ticking removes from it.
  const add = s.allMatching ? !on : on;
  for (const k of keys) {
    if (add) next.add(k);
    else next.delete(k);
  }
  return { allMatching: s.allMatching, keys: next };
}

/** How many items the selection holds (for all matching: the server's count minus the exceptions). */
export const selectionSize = (s: QueueSelection, matching: number) =>
  s.allMatching ? Math.max(0, matching - s.keys.size) : s.keys.size;

/** The queue's URL with some filter fields changed (an empty value removes one). */
export function queueHref(filter: QueueFilter, changes: Partial<Record<keyof QueueFilter, string>>): string {
  const next = new URLSearchParams(
    Object.entries({ ...filter, ...changes }).filter((e): e is [string, string] => !!e[1]),
  );
  return `/review${next.size ? `?${next.toString()}` : ""}`;
}

/** The sort a header click asks for, as the URL's `sort` and `dir` (the defaults left out). */
export function sortChange(sort: QueueSort, by: SortKey): { sort: string; dir: string } {
  const next = nextSort(sort, by);
  return { sort: next.by === "queue" ? "" : next.by, dir: next.dir === "asc" ? "" : next.dir };
}

"use client";
import { useSyncExternalStore } from "react";
import {
  COLUMN_LABEL,
  COLUMNS_STORAGE_KEY,
  QUEUE_COLUMNS,
  type QueueColumn,
  readColumns,
} from "@/lib/review/queue-table";
import { Checkbox } from "@/components/ui/inputs";

const listeners = new Set<() => void>();
function subscribe(onChange: () => void) {
  listeners.add(onChange);
  window.addEventListener("storage", onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onChange);
  };
}
const stored = () => window.localStorage.getItem(COLUMNS_STORAGE_KEY);

/** The columns the reviewer chose, remembered in this browser (every column until they choose). */
export function useQueueColumns(): [QueueColumn[], (columns: QueueColumn[]) => void] {
  const raw = useSyncExternalStore(subscribe, stored, () => null);
  const save = (columns: QueueColumn[]) => {
    window.localStorage.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(columns));
    for (const l of listeners) l();
  };
  return [readColumns(raw), save];
}

/** "Columns": which of the table's optional columns are shown. */
export function QueueColumnPicker({
  columns,
  onChange,
}: {
  columns: QueueColumn[];
  onChange: (columns: QueueColumn[]) => void;
}) {
  return (
    <details className="relative text-sm" data-testid="queue-columns">
      <summary className="cursor-pointer select-none text-slate-600">Columns</summary>
      <fieldset className="absolute right-0 z-10 mt-1 space-y-1 rounded border border-slate-200 bg-white p-2 shadow">
        <legend className="sr-only">Shown columns</legend>
        {QUEUE_COLUMNS.map((c) => (
          <Checkbox
            key={c}
            label={COLUMN_LABEL[c]}
            checked={columns.includes(c)}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? QUEUE_COLUMNS.filter((x) => x === c || columns.includes(x))
                  : columns.filter((x) => x !== c),
              )
            }
          />
        ))}
      </fieldset>
    </details>
  );
}

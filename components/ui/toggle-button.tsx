import type { ComponentPropsWithRef } from "react";

/**
 * One option of a set where one is chosen: a tab of a tab list, a radio of a choice group, an item
 * of a pick list. The caller gives the role and its ARIA state (`role="tab" aria-selected`,
 * `role="radio" aria-checked`); `selected` only drives the look, so the two always agree when the
 * caller passes the same boolean to both.
 */
const SHAPES = {
  /** Rounded filter tabs with a count (review queue kinds). */
  pill: {
    base: "rounded-full px-3 py-1 text-sm ring-1",
    on: "bg-indigo-600 text-white ring-indigo-600",
    off: "bg-white ring-slate-300",
  },
  /** Small bordered choices in a row (merge choices). */
  chip: {
    base: "rounded border px-2 py-0.5 text-xs",
    on: "border-amber-600 bg-amber-100 font-medium",
    off: "border-slate-300",
  },
  /** Joined segments of one bordered control (probe filters). */
  segment: {
    base: "px-2 py-0.5 text-xs",
    on: "bg-slate-800 text-white",
    off: "hover:bg-slate-50",
  },
  /** Full-width rows of a vertical list (tool picker). */
  row: {
    base: "w-full truncate rounded px-2 py-1 text-left font-mono text-xs",
    on: "bg-indigo-100 text-indigo-900",
    off: "hover:bg-slate-100",
  },
} as const;

export type ToggleButtonProps = ComponentPropsWithRef<"button"> & {
  selected: boolean;
  shape: keyof typeof SHAPES;
};

export function ToggleButton({
  selected,
  shape,
  className = "",
  type = "button",
  ...props
}: ToggleButtonProps) {
  const s = SHAPES[shape];
  return (
    <button type={type} className={`${s.base} ${selected ? s.on : s.off} ${className}`.trim()} {...props} />
  );
}

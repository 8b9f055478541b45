import type { ComponentPropsWithRef, ReactNode } from "react";

/**
 * Form controls with the studio's look: every `<input>`, `<select>` and `<textarea>` of a page is one
 * of these. Each forwards every native prop (the ref included); `className` adds layout (width,
 * margin, a monospace font), `controlSize` picks the padding and text size, `tone` the border of a
 * control that asks for something (a reason to reject), and an `aria-invalid` control (as Field
 * sets it) turns red.
 */
const CONTROL = "rounded border bg-white aria-[invalid=true]:border-rose-400";

const SIZES = {
  /** Inline in a table row or a dense toolbar. */
  xs: "px-2 py-0.5 text-xs",
  /** The default. */
  sm: "px-2 py-1 text-sm",
  /** A form that is the page's one purpose (sign-in). */
  lg: "px-3 py-2 text-sm",
} as const;

const TONES = {
  default: "border-slate-300",
  danger: "border-rose-300",
  warning: "border-amber-400",
} as const;

export type ControlSize = keyof typeof SIZES;
export type ControlTone = keyof typeof TONES;
type ControlLook = { controlSize?: ControlSize; tone?: ControlTone };

const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ");

const controlClassName = ({ controlSize = "sm", tone = "default" }: ControlLook, className?: string) =>
  join(CONTROL, SIZES[controlSize], TONES[tone], className);

/** Text, number, search, email and password fields; files (FileInput), checkboxes and radios have their own. */
export function Input({
  className,
  controlSize,
  tone,
  ...props
}: ComponentPropsWithRef<"input"> & ControlLook) {
  return <input className={controlClassName({ controlSize, tone }, className)} {...props} />;
}

/**
 * A search box. `label` is its accessible name (a placeholder is only an example of what to type);
 * `name` is the query parameter a search form submits, `q` unless told.
 */
export function SearchInput({
  label,
  name = "q",
  ...props
}: Omit<ComponentPropsWithRef<"input">, "type" | "aria-label"> & ControlLook & { label: string }) {
  return <Input type="search" name={name} aria-label={label} {...props} />;
}

export function Select({
  className,
  controlSize,
  tone,
  ...props
}: ComponentPropsWithRef<"select"> & ControlLook) {
  return <select className={controlClassName({ controlSize, tone }, className)} {...props} />;
}

export function Textarea({
  className,
  controlSize,
  tone,
  ...props
}: ComponentPropsWithRef<"textarea"> & ControlLook) {
  return <textarea className={controlClassName({ controlSize, tone }, className)} {...props} />;
}

/**
 * A select that narrows a list by one field: the first option (value "") shows everything, then one
 * option per value.
 */
export function FilterSelect({
  allLabel = "all",
  options,
  ...props
}: ComponentPropsWithRef<"select"> &
  ControlLook & { allLabel?: string; options: readonly { value: string; label: string }[] }) {
  return (
    <Select {...props}>
      <option value="">{allLabel}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  );
}

/** File pickers: a styled button and the chosen names over the native input (./file-input.tsx). */
export { FileInput } from "./file-input";

type ChoiceProps = Omit<ComponentPropsWithRef<"input">, "type" | "title"> & {
  /** The text beside the box; it is the control's accessible name. */
  label: ReactNode;
  /** Layout of the label row (alignment, colour); the box itself is not restyled. */
  labelClassName?: string;
  /** A tooltip for the whole row. */
  title?: string;
};

function Choice({ type, label, labelClassName, title, className, ...props }: ChoiceProps & { type: string }) {
  return (
    <label className={join("flex items-center gap-2", labelClassName)} title={title}>
      <input type={type} className={join("accent-indigo-600", className)} {...props} />
      {label}
    </label>
  );
}

/** A checkbox inside its label, so a click on the text ticks it. */
export function Checkbox(props: ChoiceProps) {
  return <Choice type="checkbox" {...props} />;
}

/** One radio button of a group (same `name`) inside its label. */
export function Radio(props: ChoiceProps) {
  return <Choice type="radio" {...props} />;
}

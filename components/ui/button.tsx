import type { ComponentPropsWithRef } from "react";

/**
 * The one place buttons get their look. Pages pick a variant and a size and add layout classes
 * (margins, width) through `className`; they do not restyle colour, border or padding.
 */
const VARIANTS = {
  /** The main action of a form or panel; one per group. */
  primary: "bg-indigo-600 text-white hover:bg-indigo-500",
  /** Alternatives to the main action (preview, cancel, paging). */
  secondary: "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
  /** Destructive or negative decisions (reject, cancel a run). */
  danger: "bg-rose-600 text-white hover:bg-rose-500",
  /** Destructive action that should not draw the eye first. */
  "danger-outline": "border border-rose-300 bg-white text-rose-700 hover:bg-rose-50",
  /** Positive review decisions (accept). */
  success: "bg-emerald-600 text-white hover:bg-emerald-500",
  /** Actions that override a safeguard (accept despite risks, take a merge). */
  warning: "bg-amber-600 text-white hover:bg-amber-500",
  /** A bordered button that takes its colour from the surrounding text: for coloured or dark panels. */
  outline: "border border-current/40 hover:bg-current/10",
  /** An inline action that reads like a link inside text or a table cell. */
  ghost: "text-indigo-700 hover:underline disabled:text-slate-400 disabled:no-underline",
} as const;

const SIZES = {
  xs: "px-2 py-0.5 text-xs",
  sm: "px-3 py-1 text-sm",
  md: "px-3 py-1.5 text-sm font-medium",
  lg: "px-4 py-2 text-sm font-medium",
} as const;

/**
 * Ghost buttons sit inline with text: no padding, and without a size they take the surrounding font.
 */
const GHOST_SIZES = { xs: "text-xs", sm: "text-sm", md: "text-sm", lg: "text-sm" } as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

export const buttonClassName = ({
  variant = "primary",
  size,
  className = "",
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}) =>
  [
    "rounded disabled:cursor-not-allowed",
    variant === "ghost" ? "" : "disabled:opacity-50",
    VARIANTS[variant],
    variant === "ghost" ? (size ? GHOST_SIZES[size] : "") : SIZES[size ?? "sm"],
    className,
  ]
    .filter(Boolean)
    .join(" ");

export type ButtonProps = ComponentPropsWithRef<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /**
   * Why the button is disabled, shown as its tooltip. Say it whenever the reason is not obvious from
   * the page ("Preview first").
   */
  disabledReason?: string;
};

/**
 * A `<button>` with the studio's look. Defaults to `type="button"` so a button inside a form submits
 * only when it says `type="submit"`. Every other prop, the ref included, goes to the element.
 */
export function Button({
  variant,
  size,
  className,
  type = "button",
  disabledReason,
  title,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      title={props.disabled && disabledReason ? disabledReason : title}
      className={buttonClassName({ variant, size, className })}
      {...props}
    />
  );
}

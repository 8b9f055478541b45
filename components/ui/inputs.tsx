import type { ComponentPropsWithRef } from "react";

/**
 * Text-like controls with the studio's look. Each forwards every native prop (the ref included);
 * `className` adds layout (width, margin), and an `aria-invalid` control (as Field sets it) turns red.
 */
const CONTROL = "rounded border border-slate-300 px-2 py-1 text-sm aria-[invalid=true]:border-rose-400";

const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ");

export function Input({ className, ...props }: ComponentPropsWithRef<"input">) {
  return <input className={join(CONTROL, className)} {...props} />;
}

export function Select({ className, ...props }: ComponentPropsWithRef<"select">) {
  return <select className={join(CONTROL, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentPropsWithRef<"textarea">) {
  return <textarea className={join(CONTROL, className)} {...props} />;
}

/** A file picker whose button matches the studio's secondary buttons instead of the browser default. */
export function FileInput({ className, ...props }: Omit<ComponentPropsWithRef<"input">, "type">) {
  return (
    <input
      type="file"
      className={join(
        "block text-sm text-slate-600 file:mr-3 file:rounded file:border file:border-slate-300 file:bg-white file:px-3 file:py-1 file:text-sm file:text-slate-700 hover:file:bg-slate-50",
        className,
      )}
      {...props}
    />
  );
}

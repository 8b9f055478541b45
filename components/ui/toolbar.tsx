import type { ComponentPropsWithRef } from "react";

/**
 * A row of actions on what is selected, in the studio's card look: `role="toolbar"`, named by
 * `label` for screen readers. `className` lays out its contents.
 */
export function Toolbar({
  label,
  className,
  ...props
}: Omit<ComponentPropsWithRef<"div">, "role" | "aria-label"> & { label: string }) {
  return (
    <div
      role="toolbar"
      aria-label={label}
      className={["rounded-lg border border-slate-200 bg-white px-3 py-2", className]
        .filter(Boolean)
        .join(" ")}
      {...props}
    />
  );
}

"use client";
import { type ComponentPropsWithRef, useEffect, useId, useRef, useState } from "react";

const join = (...parts: (string | undefined | false)[]) => parts.filter(Boolean).join(" ");

const chosenLabel = (names: string[], multiple: boolean) => {
  if (names.length === 0) return multiple ? "No files chosen" : "No file chosen";
  if (names.length === 1) return names[0];
  const shown = names.slice(0, 3).join(", ");
  return `${names.length} files: ${shown}${names.length > 3 ? ", …" : ""}`;
};

/**
 * A file picker with the studio's look: a visible button and the chosen file names beside it. The
 * native input stays in the page, visually hidden: it keeps the focus, its label (Field or
 * aria-label) and the keyboard (Tab to it, Enter or Space opens the browser's picker), and the
 * button shows its focus ring. A form reset clears the names with the files.
 */
export function FileInput({
  className,
  id,
  multiple = false,
  onChange,
  ref,
  buttonLabel,
  ...props
}: Omit<ComponentPropsWithRef<"input">, "type"> & {
  /** The button's text; "Choose file" / "Choose files" by default. */
  buttonLabel?: string;
}) {
  const generated = useId();
  const inputId = id ?? generated;
  const input = useRef<HTMLInputElement | null>(null);
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const clear = () => setNames([]);
    form.addEventListener("reset", clear);
    return () => form.removeEventListener("reset", clear);
  }, []);
  const isFolder = "webkitdirectory" in props;
  return (
    <div className={join("relative flex flex-wrap items-center gap-2 text-sm", className)} data-file-input>
      <input
        type="file"
        id={inputId}
        multiple={multiple}
        ref={(el) => {
          input.current = el;
          if (typeof ref === "function") return ref(el);
          if (ref) ref.current = el;
        }}
        className="peer sr-only"
        onChange={(e) => {
          setNames([...(e.target.files ?? [])].map((f) => f.webkitRelativePath || f.name));
          onChange?.(e);
        }}
        {...props}
      />
      <span
        aria-hidden
        onClick={() => input.current?.click()}
        className="cursor-pointer rounded border border-slate-300 bg-white px-3 py-1 text-slate-700 select-none hover:bg-slate-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-500 peer-disabled:cursor-not-allowed peer-disabled:opacity-50"
      >
        {buttonLabel ?? (isFolder ? "Choose folder" : multiple ? "Choose files" : "Choose file")}
      </span>
      <span className="min-w-0 truncate text-slate-600" aria-live="polite" data-testid="file-input-chosen">
        {chosenLabel(names, multiple || isFolder)}
      </span>
    </div>
  );
}

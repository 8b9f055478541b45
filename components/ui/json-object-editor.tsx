"use client";
import { useState } from "react";
import { parseJsonObject } from "@/lib/playground/playground.schema";

/**
 * A JSON object in a textarea, validated as you type. Monaco has no JSON language in the basic
 * set we bundle, and a plain textarea keeps keyboard and paste behaviour predictable.
 * `onValid` receives the parsed object only when the text is a valid JSON object.
 */
export function JsonObjectEditor({
  label,
  initial,
  onValid,
  rows = 12,
}: {
  label: string;
  initial: string;
  onValid: (value: Record<string, unknown> | null) => void;
  rows?: number;
}) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <textarea
        aria-label={label}
        value={text}
        rows={rows}
        spellCheck={false}
        className={`w-full rounded border px-2 py-1 font-mono text-xs ${error ? "border-rose-400" : "border-slate-300"}`}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseJsonObject(e.target.value);
          setError(parsed.ok ? null : parsed.error);
          onValid(parsed.ok ? parsed.value : null);
        }}
      />
      {error ? (
        <p role="alert" className="text-xs text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

"use client";
import { useState } from "react";
import type { Tool } from "@/lib/environments/environment.schema";
import { parseJsonObject } from "@/lib/playground/playground.schema";
import { Button } from "@/components/ui/button";

type Prop = { type?: string | string[]; description?: string; enum?: unknown[] };

/** Converts a field's text to the JSON type its schema declares; undefined = leave the argument out. */
function coerce(prop: Prop, raw: string): unknown {
  const type = Array.isArray(prop.type) ? prop.type.find((t) => t !== "null") : prop.type;
  if (raw === "") return undefined;
  if (type === "integer" || type === "number") return Number(raw);
  if (type === "boolean") return raw === "true";
  if (type === "array" || type === "object") {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  if (prop.enum) return prop.enum.find((v) => String(v) === raw) ?? raw;
  return raw;
}

/** A form generated from the tool's JSON Schema, with a raw-JSON mode for anything it cannot express. */
export function ToolForm({
  tool,
  onRun,
  running,
  disabled,
}: {
  tool: Tool;
  onRun: (args: Record<string, unknown>) => void;
  running: boolean;
  disabled: boolean;
}) {
  const props = tool.function.parameters.properties as Record<string, Prop>;
  const required = new Set(tool.function.parameters.required);
  const [values, setValues] = useState<Record<string, string>>({});
  const [raw, setRaw] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (raw !== null) {
      const parsed = parseJsonObject(raw);
      if (!parsed.ok) return setError(parsed.error);
      setError(null);
      return onRun(parsed.value);
    }
    const args: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(props)) {
      const v = coerce(prop, values[name] ?? "");
      if (v !== undefined) args[name] = v;
    }
    const missing = [...required].filter((r) => args[r] === undefined);
    if (missing.length) return setError(`Required: ${missing.join(", ")}`);
    setError(null);
    onRun(args);
  };
  return (
    <form
      className="space-y-3"
      data-testid="tool-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="font-mono text-sm font-semibold">{tool.function.name}</h3>
        <Button
          variant="ghost"
          size="xs"
          onClick={() =>
            setRaw(
              raw === null
                ? JSON.stringify(
                    Object.fromEntries(
                      Object.entries(values)
                        .filter(([, v]) => v !== "")
                        .map(([k, v]) => [k, coerce(props[k] ?? {}, v)]),
                    ),
                    null,
                    2,
                  )
                : null,
            )
          }
        >
          {raw === null ? "Raw JSON" : "Form"}
        </Button>
      </div>
      <p className="text-xs text-slate-500">{tool.function.description}</p>
      {raw !== null ? (
        <textarea
          aria-label="Arguments (JSON)"
          value={raw}
          rows={6}
          onChange={(e) => setRaw(e.target.value)}
          className="w-full rounded border border-slate-300 p-2 font-mono text-xs"
        />
      ) : (
        Object.entries(props).map(([name, prop]) => (
          <label key={name} className="block text-sm">
            <span className="font-mono text-xs">
              {name}
              {required.has(name) ? " *" : ""}
            </span>
            <span className="ml-2 text-xs text-slate-500">
              {Array.isArray(prop.type) ? prop.type.join("|") : prop.type}{" "}
              {prop.description ? `— ${prop.description}` : ""}
            </span>
            {prop.enum ? (
              <select
                aria-label={name}
                value={values[name] ?? ""}
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
                className="mt-1 block w-full rounded border border-slate-300 px-2 py-1"
              >
                <option value="">—</option>
                {prop.enum.map((v) => (
                  <option key={String(v)} value={String(v)}>
                    {String(v)}
                  </option>
                ))}
              </select>
            ) : prop.type === "boolean" ? (
              <select
                aria-label={name}
                value={values[name] ?? ""}
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
                className="mt-1 block w-full rounded border border-slate-300 px-2 py-1"
              >
                <option value="">—</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input
                aria-label={name}
                value={values[name] ?? ""}
                type={prop.type === "integer" || prop.type === "number" ? "number" : "text"}
                step="any"
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
                className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 font-mono text-xs"
              />
            )}
          </label>
        ))
      )}
      {error ? (
        <p role="alert" className="text-xs text-rose-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={running || disabled} variant="primary" size="sm">
        {running ? "Running…" : "Run tool"}
      </Button>
    </form>
  );
}

"use client";
import { useState } from "react";
import type { Tool } from "@/lib/environments/environment.schema";
import { parseJsonObject } from "@/lib/playground/playground.schema";
import { Button } from "@/components/ui/button";
import { Field, type FieldControlProps } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/inputs";

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
        <Textarea
          aria-label="Arguments (JSON)"
          value={raw}
          rows={6}
          onChange={(e) => setRaw(e.target.value)}
          controlSize="xs"
          className="w-full font-mono"
        />
      ) : (
        Object.entries(props).map(([name, prop]) => (
          <Field
            key={name}
            label={
              <>
                <span className="font-mono text-xs">
                  {name}
                  {required.has(name) ? " *" : ""}
                </span>
                <span className="ml-2 text-xs text-slate-500">
                  {Array.isArray(prop.type) ? prop.type.join("|") : prop.type}{" "}
                  {prop.description ? `— ${prop.description}` : ""}
                </span>
              </>
            }
          >
            {(control) => (
              <ArgumentControl
                {...control}
                name={name}
                prop={prop}
                value={values[name] ?? ""}
                onChange={(value) => setValues({ ...values, [name]: value })}
              />
            )}
          </Field>
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

/** One argument's control by its schema: a choice for an enum or a boolean, else a text or number field. */
function ArgumentControl({
  name,
  prop,
  value,
  onChange,
  ...control
}: FieldControlProps & { name: string; prop: Prop; value: string; onChange: (value: string) => void }) {
  const choices = prop.enum?.map(String) ?? (prop.type === "boolean" ? ["true", "false"] : null);
  if (choices)
    return (
      <Select
        {...control}
        aria-label={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 block w-full"
      >
        <option value="">—</option>
        {choices.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </Select>
    );
  return (
    <Input
      {...control}
      aria-label={name}
      value={value}
      type={prop.type === "integer" || prop.type === "number" ? "number" : "text"}
      step="any"
      onChange={(e) => onChange(e.target.value)}
      controlSize="xs"
      className="mt-1 block w-full font-mono"
    />
  );
}

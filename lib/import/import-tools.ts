/**
 * Tool schemas of an import come from the analysis of its class code, never from the file: a file
 * can list any `tools` it likes, and trainer exports write tool names as code (docs/exports.md).
 * The file's list is checked (its names must be Python names, or the import is refused) and
 * compared with the analysis; each difference is a warning in the import result.
 */
import { pyIdentifierProblem } from "../export/python-source";

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** A tool as a name, its description and its parameters, from `{type, function: {…}}` or a bare `{name, …}`. */
function readTool(tool: unknown): { name: unknown; at: string; description: unknown; parameters: Schema } {
  const fn = isObject(tool) && isObject(tool.function) ? tool.function : isObject(tool) ? tool : {};
  return {
    name: fn.name,
    at: isObject(tool) && isObject(tool.function) ? "function." : "",
    description: fn.description,
    parameters: isObject(fn.parameters) ? fn.parameters : {},
  };
}

const propertiesOf = (parameters: Schema): Schema =>
  isObject(parameters.properties) ? parameters.properties : {};

/** The first name in `tools` that cannot be a Python name: `field` is its path inside the tool list. */
export function toolNameProblem(tools: readonly unknown[]): { field: string; message: string } | null {
  for (const [i, tool] of tools.entries()) {
    const { name, at, parameters } = readTool(tool);
    const problem = pyIdentifierProblem(name);
    if (problem) return { field: `${i}.${at}name`, message: `tool name ${problem}` };
    for (const param of Object.keys(propertiesOf(parameters))) {
      const paramProblem = pyIdentifierProblem(param);
      if (paramProblem)
        return {
          field: `${i}.${at}parameters.properties`,
          message: `tool ${String(name)}: parameter name ${paramProblem}`,
        };
    }
  }
  return null;
}

/** The same JSON with object keys sorted, so key order does not count as a difference. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** What differs between two schemas of one tool: `description`, `parameter x`, `required`, `parameters`. */
function schemaDifferences(file: ReturnType<typeof readTool>, code: ReturnType<typeof readTool>): string[] {
  const parts: string[] = [];
  if ((file.description ?? "") !== (code.description ?? "")) parts.push("description");
  const [fileProps, codeProps] = [propertiesOf(file.parameters), propertiesOf(code.parameters)];
  for (const name of new Set([...Object.keys(codeProps), ...Object.keys(fileProps)]))
    if (canonical(fileProps[name]) !== canonical(codeProps[name])) parts.push(`parameter ${name}`);
  const sorted = (p: Schema) =>
    canonical(Array.isArray(p.required) ? [...(p.required as unknown[])].sort() : []);
  if (sorted(file.parameters) !== sorted(code.parameters)) parts.push("required");
  if (!parts.length && canonical(file) !== canonical(code)) parts.push("parameters");
  return parts;
}

/**
 * Each way the file's tools disagree with the code's, with the index of the file's tool it is
 * about (null: a method the file leaves out).
 */
export function toolDisagreements(
  fileTools: readonly unknown[],
  codeTools: readonly unknown[],
  className: string,
): { index: number | null; message: string }[] {
  const code = new Map(codeTools.map(readTool).map((t) => [String(t.name), t]));
  const named = new Set<string>();
  const out: { index: number | null; message: string }[] = [];
  for (const [index, raw] of fileTools.entries()) {
    const tool = readTool(raw);
    const name = String(tool.name);
    named.add(name);
    const mine = code.get(name);
    if (!mine) out.push({ index, message: `tool "${name}" is not a method of ${className}; it is left out` });
    else {
      const parts = schemaDifferences(tool, mine);
      if (parts.length)
        out.push({
          index,
          message: `tool "${name}" differs from the code in ${parts.join(", ")}; the code's schema is used`,
        });
    }
  }
  for (const name of code.keys())
    if (!named.has(name))
      out.push({
        index: null,
        message: `method "${name}" of ${className} is missing from the file's tools; it is a tool`,
      });
  return out;
}

/**
 * Tool schemas with exactly one JSON-Schema `type` per property, for readers that take `type` as a
 * single string: verl's `OpenAIFunctionPropertySchema.type` (verl/tools/schemas.py; a plain `str`
 * before verl-project/verl 8c3bee471, `str | list[str]` since) and the chat templates that print
 * it. A nullable type (`["string", "null"]`) becomes its non-null type and the property leaves
 * `required` (optional ⇒ not required); every other keyword (description, enum, items, default…)
 * is kept, so readers that accept more keywords still see them. A parameter that was required
 * and nullable (`x: Optional[str]` without a default) may now be omitted: `nullableRequired`
 * names those, and the generated Python passes None for them when the model leaves them out.
 */
import type { OpenAiTool } from "../export.schema";

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON-Schema type of a literal enum value. */
function typeOfValue(v: unknown): string {
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "boolean") return "boolean";
  if (Array.isArray(v)) return "array";
  if (isObject(v)) return "object";
  return "string";
}

/** The types a property admits, from `type`, `anyOf`/`oneOf` members or `enum` values. */
function admittedTypes(prop: Schema): string[] {
  if (typeof prop.type === "string") return [prop.type];
  if (Array.isArray(prop.type)) return prop.type.filter((t): t is string => typeof t === "string");
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  const members = [...list(prop.anyOf), ...list(prop.oneOf)].filter(isObject);
  if (members.length) return members.flatMap(admittedTypes);
  if (Array.isArray(prop.enum)) return prop.enum.map((v) => (v === null ? "null" : typeOfValue(v)));
  return [];
}

/** One type: the non-null one; integer|number widens to number; no type at all reads as string. */
function pickType(types: string[]): string {
  const nonNull = [...new Set(types.filter((t) => t !== "null"))];
  if (nonNull.length === 2 && nonNull.includes("integer") && nonNull.includes("number")) return "number";
  return nonNull[0] ?? "string";
}

function singleTypeProperty(prop: Schema): { schema: Schema; nullable: boolean } {
  const types = admittedTypes(prop);
  const nullable = types.includes("null") || prop.nullable === true;
  const schema: Schema = { ...prop, type: pickType(types) };
  if (isObject(schema.items)) schema.items = singleTypeProperty(schema.items).schema;
  if (isObject(schema.properties)) {
    const nested = singleTypeProperties(schema.properties, schema.required);
    schema.properties = nested.properties;
    if (Array.isArray(schema.required)) schema.required = nested.required;
  }
  if (Array.isArray(schema.enum) && schema.enum.includes(null))
    schema.enum = schema.enum.filter((v) => v !== null);
  delete schema.nullable;
  return { schema, nullable };
}

function singleTypeProperties(
  properties: Schema,
  required: unknown,
): { properties: Schema; required: string[] } {
  const out: Schema = {};
  const optional = new Set<string>();
  for (const [name, prop] of Object.entries(properties)) {
    const converted = singleTypeProperty(isObject(prop) ? prop : {});
    out[name] = converted.schema;
    if (converted.nullable) optional.add(name);
  }
  const req = Array.isArray(required)
    ? required.filter((r): r is string => typeof r === "string" && !optional.has(r))
    : [];
  return { properties: out, required: req };
}

const isNullable = (prop: unknown) =>
  isObject(prop) && (admittedTypes(prop).includes("null") || prop.nullable === true);

/** Names of the raw schema's properties that are nullable. */
export function nullableProperties(tool: OpenAiTool): Set<string> {
  const props = isObject(tool.function.parameters.properties) ? tool.function.parameters.properties : {};
  return new Set(
    Object.entries(props)
      .filter(([, p]) => isNullable(p))
      .map(([n]) => n),
  );
}

/** Required and nullable in the raw schema: optional after singleTypeTool, None when omitted. */
export function nullableRequired(tool: OpenAiTool): string[] {
  const required = tool.function.parameters.required;
  const nullable = nullableProperties(tool);
  return Array.isArray(required)
    ? required.filter((r): r is string => typeof r === "string" && nullable.has(r))
    : [];
}

export function singleTypeTool(tool: OpenAiTool): OpenAiTool {
  const params = tool.function.parameters;
  const props = isObject(params.properties) ? params.properties : {};
  const { properties, required } = singleTypeProperties(props, params.required);
  return {
    ...tool,
    function: { ...tool.function, parameters: { ...params, type: "object", properties, required } },
  };
}

import type { Tool } from "@/lib/environments/environment.schema";

type Param = {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: { type?: string };
  anyOf?: Param[];
};

function typeLabel(p: Param): string {
  if (p.enum) return p.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (p.anyOf) return p.anyOf.map(typeLabel).join(" | ");
  if (Array.isArray(p.type)) return p.type.map((t) => typeLabel({ ...p, type: t })).join(" | ");
  if (p.type === "array" && p.items?.type) return `${p.items.type}[]`;
  return p.type ?? "any";
}

export function ToolTable({ tools }: { tools: Tool[] }) {
  if (tools.length === 0)
    return <p className="text-sm text-slate-500">No tool schemas stored for this version.</p>;
  return (
    <table className="w-full text-left text-sm" data-testid="tool-table">
      <thead className="text-xs uppercase tracking-wide text-slate-500">
        <tr>
          <th className="py-2 pr-4 font-medium">Tool</th>
          <th className="py-2 pr-4 font-medium">Description</th>
          <th className="py-2 font-medium">Parameters</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 align-top">
        {tools.map(({ function: fn }) => {
          const props = Object.entries((fn.parameters.properties ?? {}) as Record<string, Param>);
          const required = new Set(fn.parameters.required ?? []);
          return (
            <tr key={fn.name} data-testid="tool-row">
              <td className="py-2 pr-4 font-mono text-xs font-semibold">{fn.name}</td>
              <td className="py-2 pr-4 text-slate-700">{fn.description}</td>
              <td className="py-2">
                {props.length === 0 ? (
                  <span className="text-slate-400">none</span>
                ) : (
                  <ul className="space-y-0.5">
                    {props.map(([name, p]) => (
                      <li key={name}>
                        <code className="text-xs">
                          {name}
                          {required.has(name) ? "" : "?"}
                        </code>{" "}
                        <span className="text-xs text-slate-500">{typeLabel(p)}</span>
                        {p.description ? (
                          <span className="text-xs text-slate-500"> — {p.description}</span>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

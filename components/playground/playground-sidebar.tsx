import type { Tool } from "@/lib/environments/environment.schema";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/inputs";
import { JsonObjectEditor } from "@/components/ui/json-object-editor";
import { ToggleButton } from "@/components/ui/toggle-button";

export type ScenarioOption = { id: string; externalId: string; initialState: Record<string, unknown> };

/** The value of the initial-state picker that stands for hand-written JSON rather than a scenario. */
export const CUSTOM_STATE = "custom";

/** Where the episode starts (a scenario's initial state or custom JSON) and which tool to call. */
export function PlaygroundSidebar({
  scenarios,
  source,
  onSource,
  onCustom,
  tools,
  selected,
  onSelect,
}: {
  scenarios: ScenarioOption[];
  source: string;
  onSource: (source: string) => void;
  onCustom: (state: Record<string, unknown> | null) => void;
  tools: Tool[];
  selected: string | null;
  onSelect: (name: string) => void;
}) {
  return (
    <aside className="space-y-3">
      <Field label="Initial state" labelClassName="font-medium text-slate-700">
        {(control) => (
          <Select
            {...control}
            aria-label="Initial state"
            value={source}
            onChange={(e) => onSource(e.target.value)}
            className="mt-1 w-full"
          >
            {scenarios.map((s) => (
              <option key={s.id} value={s.id}>
                scenario {s.externalId}
              </option>
            ))}
            <option value={CUSTOM_STATE}>Custom JSON…</option>
          </Select>
        )}
      </Field>
      {source === CUSTOM_STATE ? (
        <JsonObjectEditor label="Custom initial state" initial="{}" onValid={onCustom} />
      ) : null}
      <ul className="space-y-0.5" aria-label="Tools">
        {tools.map((t) => (
          <li key={t.function.name}>
            <ToggleButton
              shape="row"
              selected={t.function.name === selected}
              onClick={() => onSelect(t.function.name)}
            >
              {t.function.name}
            </ToggleButton>
          </li>
        ))}
      </ul>
    </aside>
  );
}

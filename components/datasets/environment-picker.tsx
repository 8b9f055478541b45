"use client";
import { Checkbox } from "@/components/ui/inputs";

export type EligibleEnvironment = { id: string; slug: string; name: string; acceptedScenarios: number };

/** Checkboxes of accepted environments; none ticked means "all accepted environments". */
export function EnvironmentPicker({
  environments,
  selected,
  onChange,
}: {
  environments: EligibleEnvironment[];
  selected: string[];
  onChange: (ids: string[]) => void;
}) {
  if (environments.length === 0)
    return (
      <p className="text-sm text-amber-700">
        No accepted environments yet: accept some on the Environments page first.
      </p>
    );
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected, id] : selected.filter((s) => s !== id));
  return (
    <fieldset className="text-sm">
      <legend className="font-medium text-slate-700">
        Environments <span className="font-normal text-slate-500">(none ticked = all accepted)</span>
      </legend>
      <div className="mt-1 grid max-h-48 grid-cols-1 gap-1 overflow-auto sm:grid-cols-2">
        {environments.map((e) => (
          <Checkbox
            key={e.id}
            checked={selected.includes(e.id)}
            onChange={(ev) => toggle(e.id, ev.target.checked)}
            label={
              <>
                <span>{e.name}</span>
                <span className="text-xs text-slate-500">
                  {e.slug} · {e.acceptedScenarios} accepted scenarios
                </span>
              </>
            }
          />
        ))}
      </div>
    </fieldset>
  );
}

import { Field } from "@/components/ui/field";
import { FileInput, Input } from "@/components/ui/inputs";

/** Chromium/Firefox/Safari all support folder picking through this non-standard attribute. */
const FOLDER_PICKER = { webkitdirectory: "" } as Record<string, string>;

/** What to import: single files or a folder, and the optional id and class name overrides. */
export function ImportFields({ onFiles }: { onFiles: (files: File[]) => void }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field
        label={
          <>
            EnvScaler JSON or environment files (env metadata + scenario files, or environment.py +
            scenarios.json [+ meta.json])
          </>
        }
      >
        {(control) => (
          <FileInput
            {...control}
            multiple
            accept=".json,.py"
            aria-label="Import files"
            className="mt-1"
            onChange={(e) => onFiles([...(e.target.files ?? [])])}
          />
        )}
      </Field>
      <Field label="…or an environment folder">
        {(control) => (
          <FileInput
            {...control}
            {...FOLDER_PICKER}
            aria-label="Import folder"
            className="mt-1"
            onChange={(e) => onFiles([...(e.target.files ?? [])])}
          />
        )}
      </Field>
      <Field
        label={
          <>
            Environment id{" "}
            <span className="text-slate-500">(Python files picked one by one; default: the folder name)</span>
          </>
        }
      >
        {(control) => <Input {...control} name="envId" className="mt-1 w-full" />}
      </Field>
      <Field
        label={
          <>
            Class name <span className="text-slate-500">(default: meta.json or the first class)</span>
          </>
        }
      >
        {(control) => <Input {...control} name="className" className="mt-1 w-full" />}
      </Field>
    </div>
  );
}

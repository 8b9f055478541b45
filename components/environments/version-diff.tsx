"use client";
import { useRouter } from "next/navigation";
import { CodeDiff } from "@/components/code/code-editor";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/inputs";

/** Pick any two versions; the URL keeps the pair so a diff can be linked. */
export function VersionDiff(props: {
  environmentId: string;
  versions: number[];
  a: number;
  b: number;
  original: string;
  modified: string;
}) {
  const router = useRouter();
  const go = (a: number, b: number) =>
    router.push(`/environments/${props.environmentId}/versions?a=${a}&b=${b}`);
  const picker = (label: string, value: number, onChange: (v: number) => void) => (
    <Field label={label} className="flex items-center gap-2 text-sm">
      {(control) => (
        <Select {...control} value={value} onChange={(e) => onChange(Number(e.target.value))}>
          {props.versions.map((v) => (
            <option key={v} value={v}>
              v{v}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
  return (
    <div className="space-y-2">
      <div className="flex gap-4">
        {picker("Left version", props.a, (a) => go(a, props.b))}
        {picker("Right version", props.b, (b) => go(props.a, b))}
      </div>
      <div className="overflow-hidden rounded-lg border border-slate-700" data-testid="version-diff">
        <CodeDiff navigable height="32rem" original={props.original} modified={props.modified} />
      </div>
    </div>
  );
}

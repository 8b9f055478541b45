import { InputField } from "@/components/ui/field";

/** Seed and test ratio, shared by the create and new-version forms. */

export function SplitFields({ seed = 42, testRatio = 0.2 }: { seed?: number; testRatio?: number }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <InputField
        label="Seed"
        name="seed"
        type="number"
        min={0}
        step={1}
        defaultValue={seed}
        className="mt-1 w-full"
      />
      <InputField
        label="Test ratio"
        name="testRatio"
        type="number"
        min={0}
        max={0.9}
        step={0.05}
        defaultValue={testRatio}
        className="mt-1 w-full"
      />
    </div>
  );
}

/** The common part of both forms' payloads; the server parses and range-checks it. */
export const splitValues = (form: FormData) => ({ seed: form.get("seed"), testRatio: form.get("testRatio") });

/** Seed and test ratio, shared by the create and new-version forms. */
export const inputClass = "mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm";

export function SplitFields({ seed = 42, testRatio = 0.2 }: { seed?: number; testRatio?: number }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <label className="block text-sm">
        Seed
        <input name="seed" type="number" min={0} step={1} defaultValue={seed} className={inputClass} />
      </label>
      <label className="block text-sm">
        Test ratio
        <input
          name="testRatio"
          type="number"
          min={0}
          max={0.9}
          step={0.05}
          defaultValue={testRatio}
          className={inputClass}
        />
      </label>
    </div>
  );
}

/** The common part of both forms' payloads; the server parses and range-checks it. */
export const splitValues = (form: FormData) => ({ seed: form.get("seed"), testRatio: form.get("testRatio") });

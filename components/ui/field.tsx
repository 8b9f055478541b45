import { type ComponentProps, type ReactNode, useId } from "react";
import { Input } from "./inputs";

/** What a form control needs to be tied to its label, hint and error. */
export type FieldControlProps = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
};

/**
 * A label, one control, an optional hint and an optional error. The label names the control
 * (`htmlFor`), the hint and the error describe it (`aria-describedby`), and an error marks it
 * `aria-invalid`. The control is a render prop so Field works in server and client components alike:
 *
 *   <Field label="Model" hint="Any OpenAI-compatible model id">
 *     {(control) => <Input name="model" {...control} />}
 *   </Field>
 *
 * Whatever `label` holds is the control's accessible name, so keep qualifiers that belong to the
 * name there and put advice in `hint`.
 */
export function Field({
  label,
  hint,
  error,
  id,
  className = "block text-sm",
  labelClassName = "",
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** A fixed id for the control; by default a generated one. */
  id?: string;
  className?: string;
  labelClassName?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={controlId} className={labelClassName}>
        {label}
      </label>
      {children({
        id: controlId,
        "aria-describedby": describedBy,
        ...(error ? { "aria-invalid": true as const } : {}),
      })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The common case, a label over one `Input`: `<InputField label="Seed" name="seed" type="number" />`.
 * Every prop but the Field's own goes to the input; `fieldClassName` is Field's `className`.
 */
export function InputField({
  label,
  hint,
  error,
  fieldClassName,
  labelClassName,
  id,
  ...input
}: ComponentProps<typeof Input> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  fieldClassName?: string;
  labelClassName?: string;
}) {
  const field = { label, hint, error, id, labelClassName, className: fieldClassName };
  return <Field {...field}>{(control) => <Input {...control} {...input} />}</Field>;
}

"use client";
/**
 * Shared by the new-dataset and new-version forms: preview first, then create exactly what was
 * previewed (same fields, pins and override reason). Editing a field makes the preview stale.
 */
import { type FormEvent, type RefObject, useState, useTransition } from "react";
import { previewDatasetVersionAction } from "@/app/datasets/actions";
import type { DatasetPlan } from "@/lib/datasets/plan";
import type { PreviewChoices } from "./dataset-preview";

export function useDatasetDraft(
  form: RefObject<HTMLFormElement | null>,
  values: (form: FormData) => Record<string, unknown>,
) {
  const [plan, setPlan] = useState<DatasetPlan | null>(null);
  const [choices, setChoices] = useState<PreviewChoices>({ pins: {}, overrideReason: "" });
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const payload = (c: PreviewChoices = choices) => ({
    ...values(new FormData(form.current ?? undefined)),
    pins: c.pins,
    overrideReason: c.overrideReason || undefined,
  });

  function preview(c: PreviewChoices = choices) {
    setChoices(c);
    startTransition(async () => {
      const result = await previewDatasetVersionAction(payload(c));
      setPlan(result.ok ? result.value : null);
      setError(result.ok ? null : result.error.message);
    });
  }
  /** Any edit outside the preview panel invalidates it: what is created must be what was shown. */
  function onFormChange(e: FormEvent<HTMLFormElement>) {
    if (e.target instanceof Element && e.target.closest("[data-preview]")) return;
    setPlan(null);
  }
  return {
    plan,
    choices,
    error,
    setError,
    pending,
    startTransition,
    preview,
    onFormChange,
    payload,
    reset: () => setPlan(null),
  };
}

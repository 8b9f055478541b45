"use client";
/**
 * Shared by the new-dataset and new-version forms: preview first, then create exactly what was
 * previewed (same fields, pins and override reason). Editing a field makes the preview stale.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, type RefObject, useState } from "react";
import { createDatasetVersionAction, previewDatasetVersionAction } from "@/app/datasets/actions";
import type { DatasetPreviewPage, PreviewPage } from "@/lib/datasets/preview-page";
import { unwrapAction } from "@/components/data/unwrap-action";
import type { PreviewChoices } from "./dataset-preview";

type Created = { datasetId: string; version: number };

export function useDatasetDraft(
  form: RefObject<HTMLFormElement | null>,
  values: (form: FormData) => Record<string, unknown>,
) {
  // Kept apart from the preview mutation's data: changing a pin re-previews with the panel still shown.
  const [plan, setPlan] = useState<DatasetPreviewPage | null>(null);
  const [choices, setChoices] = useState<PreviewChoices>({
    pins: {},
    overrideReason: "",
    difficulty: {},
  });
  const previewing = useMutation({
    mutationFn: (input: Record<string, unknown>) => unwrapAction(previewDatasetVersionAction(input)),
  });
  // Datasets are server-rendered pages (no query holds them): the forms navigate or refresh.
  const creating = useMutation({
    mutationFn: (input: Record<string, unknown>) => unwrapAction(createDatasetVersionAction(input)),
  });
  const payload = (c: PreviewChoices = choices) => ({
    ...values(new FormData(form.current ?? undefined)),
    pins: c.pins,
    overrideReason: c.overrideReason || undefined,
    difficulty: c.difficulty,
  });

  /** A new choice starts at the first page; paging keeps the choices. */
  function preview(c: PreviewChoices = choices, page?: Partial<PreviewPage>) {
    setChoices(c);
    creating.reset();
    previewing.mutate(
      { ...payload(c), page: page ?? {} },
      { onSuccess: setPlan, onError: () => setPlan(null) },
    );
  }
  function create(onCreated: (created: Created) => void) {
    creating.mutate(payload(), {
      onSuccess: (created) => {
        setPlan(null);
        onCreated(created);
      },
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
    error: (creating.error ?? previewing.error)?.message ?? null,
    pending: previewing.isPending || creating.isPending,
    preview,
    create,
    onFormChange,
    reset: () => setPlan(null),
  };
}

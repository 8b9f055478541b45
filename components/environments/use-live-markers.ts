"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { analyzeSourceAction } from "@/app/environments/[id]/edit/actions";
import type { CodeMarker } from "@/lib/environments/markers";
import { queryKeys } from "@/components/data/query-keys";
import { unwrapAction } from "@/components/data/unwrap-action";

/** Pause in typing before the source is analysed; shorter re-analyses on nearly every keystroke. */
const ANALYZE_DELAY_MS = 700;

/**
 * Problem markers for the text being edited. While the text differs from the saved version it is
 * analysed once it settles after a pause in typing (one query key per text, so a reply for a text
 * typed over since never lands on the newer one). Saved text shows the markers its save answered
 * with, so `setMarkers` is returned for the save.
 */
export function useLiveMarkers({
  environmentId,
  text,
  isActive,
}: {
  environmentId: string;
  text: string;
  isActive: boolean;
}) {
  const [markers, setMarkers] = useState<CodeMarker[]>([]);
  const [settled, setSettled] = useState<string | null>(null);
  useEffect(() => {
    if (!isActive) return;
    const timer = setTimeout(() => setSettled(text), ANALYZE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, isActive]);
  const analysis = useQuery({
    queryKey: queryKeys.environments.analysis(environmentId, settled ?? ""),
    queryFn: () => unwrapAction(analyzeSourceAction({ environmentId, source: settled })),
    enabled: isActive && settled !== null,
    // The previous text's markers stay until the next analysis answers; one text's analysis never changes.
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
  const shown = isActive && analysis.data ? analysis.data.markers : markers;
  return [shown, setMarkers] as const;
}

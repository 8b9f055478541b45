"use client";
import { useEffect, useState } from "react";
import { analyzeSourceAction } from "@/app/environments/[id]/edit/actions";
import type { CodeMarker } from "@/lib/environments/markers";

/** Pause in typing before the source is analysed; shorter re-analyses on nearly every keystroke. */
const ANALYZE_DELAY_MS = 700;

/**
 * Problem markers for the text being edited: re-analysed after a pause in typing while the text
 * differs from the saved version; a stale reply (the text changed since) is ignored. A save also
 * reports markers, so `setMarkers` is returned for it.
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
  useEffect(() => {
    if (!isActive) return;
    let isCurrent = true;
    const timer = setTimeout(() => {
      void analyzeSourceAction({ environmentId, source: text }).then((r) => {
        if (isCurrent && r.ok) setMarkers(r.value.markers);
      });
    }, ANALYZE_DELAY_MS);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [text, isActive, environmentId]);
  return [markers, setMarkers] as const;
}

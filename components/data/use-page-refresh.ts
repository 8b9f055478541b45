"use client";
/**
 * For writes whose result shows in server-rendered parts of the page (no query holds them): the
 * router refresh runs in a transition, so a form stays pending until the page shows the write.
 */
import { useRouter } from "next/navigation";
import { useTransition } from "react";

export function usePageRefresh() {
  const router = useRouter();
  const [isRefreshing, startTransition] = useTransition();
  return { isRefreshing, refresh: () => startTransition(() => router.refresh()) };
}

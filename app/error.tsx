"use client";
import { ErrorState } from "@/components/ui/states";

export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <ErrorState
      title="This page could not be loaded"
      message={error.message || "Unexpected error"}
      action={
        <button onClick={reset} className="rounded bg-rose-600 px-3 py-1 text-white hover:bg-rose-500">
          Try again
        </button>
      }
    />
  );
}

"use client";
import { ErrorState } from "@/components/ui/states";
import { Button } from "@/components/ui/button";

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
        <Button onClick={reset} variant="danger" size="sm">
          Try again
        </Button>
      }
    />
  );
}

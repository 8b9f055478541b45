import { Skeleton } from "@/components/ui/states";

export default function Loading() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading the corpus map">
      <Skeleton className="h-8 w-48" />
      <div className="grid gap-4 sm:grid-cols-5">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-20 w-full" />
        ))}
      </div>
      <Skeleton className="h-64 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

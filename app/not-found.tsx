import Link from "next/link";
import { EmptyState } from "@/components/ui/states";

export default function NotFound() {
  return (
    <EmptyState title="Not found">
      <Link href="/environments" className="text-indigo-700 hover:underline">
        Back to environments
      </Link>
    </EmptyState>
  );
}

import { Button } from "@/components/ui/button";

export function Pagination({
  page,
  pageSize,
  total,
  onPage,
  label = "Pagination",
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** The navigation's accessible name: two pagers on one page need different ones. */
  label?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label={label} className="flex items-center justify-end gap-3 text-sm text-slate-600">
      <span>
        Page {page} of {pages.toLocaleString("en-US")}
      </span>
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

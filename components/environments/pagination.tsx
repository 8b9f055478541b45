export function Pagination({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const btn = "rounded border border-slate-300 bg-white px-3 py-1 text-sm disabled:opacity-40";
  return (
    <nav aria-label="Pagination" className="flex items-center justify-end gap-3 text-sm text-slate-600">
      <span>
        Page {page} of {pages.toLocaleString("en-US")}
      </span>
      <button className={btn} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button className={btn} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

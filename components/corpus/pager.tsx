import Link from "next/link";

/** Previous / next links for one paged list of the corpus map; the other lists keep their page. */
export function Pager({
  page,
  pageCount,
  href,
  label,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  label: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="mt-3 flex items-center gap-3 text-sm">
      {page > 1 ? (
        <Link href={href(page - 1)} className="text-indigo-700 underline">
          Previous
        </Link>
      ) : null}
      <span className="text-slate-500">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link href={href(page + 1)} className="text-indigo-700 underline">
          Next
        </Link>
      ) : null}
    </nav>
  );
}

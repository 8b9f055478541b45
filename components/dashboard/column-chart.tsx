/**
 * Vertical columns in plain SVG (no chart library, nothing fetched). Every column has a <title>
 * so hovering shows the exact value; the table-like labels keep it readable without colour.
 */
export function ColumnChart({
  data,
  format = (v) => String(v),
  testId,
  height = 120,
  labelEvery = 1,
}: {
  data: { label: string; value: number }[];
  format?: (v: number) => string;
  testId?: string;
  height?: number;
  labelEvery?: number;
}) {
  const max = Math.max(...data.map((d) => d.value), 0);
  if (max === 0)
    return (
      <p className="text-sm text-slate-500" data-testid={testId}>
        No data yet.
      </p>
    );
  const w = 100 / data.length;
  return (
    <figure data-testid={testId}>
      <svg
        viewBox={`0 0 100 ${height}`}
        preserveAspectRatio="none"
        className="h-32 w-full"
        role="img"
        aria-label={data.map((d) => `${d.label}: ${format(d.value)}`).join(", ")}
      >
        {data.map((d, i) => {
          const h = (d.value / max) * (height - 4);
          return (
            <rect
              key={d.label}
              x={i * w + w * 0.1}
              y={height - h}
              width={w * 0.8}
              height={h}
              className="fill-indigo-500"
            >
              <title>{`${d.label}: ${format(d.value)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex text-[10px] text-slate-500">
        {data.map((d, i) => (
          <span key={d.label} style={{ width: `${w}%` }} className="truncate text-center">
            {i % labelEvery === 0 ? d.label : ""}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

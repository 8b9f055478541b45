/** Small builders for explicit parquet schemas (hyparquet-writer takes the flattened thrift list). */
import type { SchemaElement } from "hyparquet";

export type Node = { flat: SchemaElement[] };

export const str = (name: string): Node => ({
  flat: [{ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" }],
});
export const int64 = (name: string): Node => ({
  flat: [{ name, type: "INT64", repetition_type: "OPTIONAL" }],
});
export const double = (name: string): Node => ({
  flat: [{ name, type: "DOUBLE", repetition_type: "OPTIONAL" }],
});
export const bool = (name: string): Node => ({
  flat: [{ name, type: "BOOLEAN", repetition_type: "OPTIONAL" }],
});

export const struct = (name: string, children: Node[]): Node => ({
  flat: [
    { name, repetition_type: "OPTIONAL", num_children: children.length },
    ...children.flatMap((c) => c.flat),
  ],
});

/** The standard 3-level LIST (what pyarrow writes and reads back as a Python list). */
export const list = (name: string, element: (name: string) => Node): Node => ({
  flat: [
    { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
    { name: "list", repetition_type: "REPEATED", num_children: 1 },
    ...element("element").flat,
  ],
});

export const root = (columns: Node[]): SchemaElement[] => [
  { name: "root", num_children: columns.length },
  ...columns.flatMap((c) => c.flat),
];

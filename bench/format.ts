// Number and table formatting, shared by the report (bench/report.ts) and progress lines.

/** Plain-text table: first column left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

export const fmt = (value: number, digits = 0): string =>
  Number.isFinite(value) ? value.toFixed(digits) : "n/a";

export const ms = (value: number): string => `${fmt(value, value < 100 ? 1 : 0)}`;

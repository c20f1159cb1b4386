import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { renderQuotationXlsx } from "../../src/modules/quotations/xlsx";
import { GOLDEN } from "./golden-set";

/**
 * Issue 23 item 1: the xlsx sets a height on every row whose cells wrap, so LibreOffice (which
 * does not grow rows on opening) shows the whole product name and notes. Read back from the
 * sheet's XML itself, not through exceljs that wrote it.
 */

interface SheetRow {
  ht?: number;
  custom: boolean;
  /** Column letter -> text (shared strings resolved). */
  cells: Map<string, string>;
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

function readSheet(bytes: Uint8Array): SheetRow[] {
  const files = unzipSync(bytes);
  const text = (name: string) => new TextDecoder().decode(files[name]);
  const shared = [...text("xl/sharedStrings.xml").matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    decode([...m[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join("")),
  );
  return [
    ...text("xl/worksheets/sheet1.xml").matchAll(/<row ([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g),
  ].map((m) => {
    const attrs = m[1]!;
    const ht = /\bht="([\d.]+)"/.exec(attrs)?.[1];
    const cells = new Map<string, string>();
    for (const c of (m[2] ?? "").matchAll(/<c r="([A-Z]+)\d+"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const value = /<v>([\s\S]*?)<\/v>/.exec(c[3] ?? "")?.[1];
      if (value === undefined) continue;
      cells.set(c[1]!, /t="s"/.test(c[2]!) ? shared[Number(value)]! : decode(value));
    }
    return {
      ht: ht === undefined ? undefined : Number(ht),
      custom: /customHeight="1"/.test(attrs),
      cells,
    };
  });
}

/** At least this many lines: every character is at least one column unit wide (CJK two). */
const minLines = (text: string, width: number) => {
  let units = 0;
  for (const char of text) units += /[\u3040-\u9fff]/.test(char) ? 2 : 1;
  return Math.ceil(units / width);
};

describe("quotation xlsx row heights", () => {
  for (const name of [
    "03-120-lines-200-char-names",
    "05-chinese",
    "04-unbroken-2000-char-word",
    "11-proforma",
  ]) {
    it(`${name}: every wrapped cell's row is tall enough for its lines`, async () => {
      const { doc } = GOLDEN.find((g) => g.name === name)!;
      const rows = readSheet(await renderQuotationXlsx(doc));
      for (const item of doc.quotation.items) {
        const row = rows.find((r) => r.cells.get("B") === item.name);
        expect(row, `row of item ${item.position}`).toBeDefined();
        const lines = Math.max(minLines(item.name, 36), minLines(item.description ?? "", 36));
        if (lines > 1) {
          expect(row!.custom, `item ${item.position}: a set height`).toBe(true);
          expect(row!.ht!, `item ${item.position}: ${lines}+ lines`).toBeGreaterThanOrEqual(
            lines * 15,
          );
        }
      }
      // The parties and terms: each value in column B, as tall as it wraps.
      for (const r of rows) {
        const value = r.cells.get("B");
        if (!value || !r.cells.get("A") || minLines(value, 36) < 2) continue;
        expect(r.ht ?? 0, `"${r.cells.get("A")}" row`).toBeGreaterThanOrEqual(
          minLines(value, 36) * 15,
        );
      }
      if (doc.kind === "proforma") {
        const labels = rows.map((r) => r.cells.get("F"));
        expect(labels).toEqual(expect.arrayContaining(["Deposit (30%)", "Balance"]));
        expect(rows[0]!.cells.get("A")).toBe("PROFORMA INVOICE");
      }
    });
  }
});

import { PDFDocument, type PDFFont } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { pdfFontkit } from "../../src/modules/quotations/pdf-fontkit";
import { fontAdvance, wrapText } from "../../src/modules/quotations/text-wrap";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";

/**
 * The PDF's line breaking, on the font the export embeds. The layout before issue 20 (kept here
 * verbatim as the reference) measured whole candidate lines and re-measured a long word once
 * per character it trimmed; the new one measures each character once. Ordinary text must break
 * exactly where it did; a word wider than the column must be cut in time linear in its length.
 */
function referenceWrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    for (const token of paragraph.match(
      /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]|\s+|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]+/g,
    ) ?? [""]) {
      const candidate = line + token;
      if (font.widthOfTextAtSize(candidate, size) <= width || line === "") {
        line = candidate;
        while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
          let cut = line.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      } else {
        lines.push(line.trimEnd());
        line = token.trimStart();
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** The item column of the PDF (cols.qty - cols.name - 60) and the page's text width. */
const COLUMN = 242;
const PAGE = 515.28;

const ORDINARY = [
  "Double wall, vacuum insulated, 304 stainless steel. Keeps drinks hot for 12 hours and cold for 24 hours. Powder coated finish in 12 colours; custom logo by laser engraving or silk screen.",
  "双层真空，304不锈钢内胆，保温12小时，保冷24小时。可定制logo：激光雕刻或丝网印刷。每箱48个，外箱尺寸 60×40×35 cm。",
  "Packing: 1 pc / white box, 48 pcs / carton (5-ply). MOQ 500 pcs per colour.\nLead time: 30 days after deposit.\r\nSample: 7 days, free of charge (freight collect).",
  "Bamboo lid with food-safe silicone seal — natural finish, official office affiliate fluffy waffle (ligatures: fi ffi fl ff).",
  "交货期：30天。Payment 30% T/T in advance, balance against the B/L copy. 价格有效期 2026年12月31日。",
  "  Indented first line, then   several   spaces   between   words, and a trailing space ",
  "",
  "Übergröße, Größe M/L, Qualität „Premium“ — façade, naïve, São Paulo, Kraków, Ærø.",
];

describe("quotation PDF line breaking", () => {
  let font: PDFFont;

  beforeAll(async () => {
    const pdf = await PDFDocument.create();
    pdf.registerFontkit(await pdfFontkit());
    font = await pdf.embedFont(await nodeCjkFont(), { subset: true });
  });

  it("breaks ordinary Latin, CJK and mixed text exactly where the old layout did", () => {
    for (const text of ORDINARY) {
      for (const [size, width] of [
        [10, COLUMN],
        [8, COLUMN],
        [9, PAGE],
        [8, 97],
      ] as const) {
        expect(
          wrapText(text, fontAdvance(font, size), width),
          `${size} pt / ${width}: ${text}`,
        ).toEqual(referenceWrap(text, font, size, width));
      }
    }
  });

  for (const length of [1_200, 2_000, 20_000]) {
    it(`cuts a ${length}-character word without a space in linear time, every line within the column`, () => {
      const word = "A".repeat(length);
      const advance = fontAdvance(font, 8);
      const started = performance.now();
      const lines = wrapText(word, advance, COLUMN);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(lines.join("")).toBe(word);
      for (const line of lines) {
        expect(font.widthOfTextAtSize(line, 8)).toBeLessThanOrEqual(COLUMN);
        // Each piece is as long as it can be: one more character would not fit.
        if (line !== lines.at(-1)) {
          expect(font.widthOfTextAtSize(`${line}A`, 8)).toBeGreaterThan(COLUMN);
        }
      }
    });
  }

  it("cuts 5,000 CJK characters and a long word after other text, keeping characters whole", () => {
    const cjk = "不锈钢保温杯双层真空".repeat(500);
    const started = performance.now();
    const lines = wrapText(cjk, fontAdvance(font, 8), COLUMN);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(lines.join("")).toBe(cjk);
    expect(Math.max(...lines.map((l) => font.widthOfTextAtSize(l, 8)))).toBeLessThanOrEqual(COLUMN);

    // The old layout let a long word that did not open the line run past the column.
    const emoji = "🙂".repeat(300);
    const mixed = `Model ${"X".repeat(400)} ${emoji} done`;
    const wrapped = wrapText(mixed, fontAdvance(font, 10), COLUMN);
    for (const line of wrapped) {
      expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(COLUMN);
      // A cut never falls inside a surrogate pair.
      expect(line).not.toMatch(/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/);
    }
    expect(wrapped.join("").replaceAll(" ", "")).toBe(mixed.replaceAll(" ", ""));
  });
});

import {
  decodePDFRawStream,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  StandardFonts,
} from "pdf-lib";
import { drawQuotation, renderQuotationPdf } from "../src/modules/quotations/pdf";
import type { QuotationDocument } from "../src/modules/quotations/view";
import { nodeCjkFont } from "../src/runtime/node/cjk-font";
import { type HealthDuringDocuments, healthDuringDocumentsReport } from "./documents";
import { fmt, table } from "./format";
import { median } from "./load";

/**
 * The quotation PDF export, timed in this process: `renderQuotationPdf` (pdf-lib, Noto Sans SC
 * subset through fontkit 2) on a one-page quotation of Chinese and Latin lines, against its
 * ceiling, pdf-lib drawing the very same page (drawQuotation) with Helvetica, a standard font
 * that needs no embedding and no subsetting (non-Latin characters become "?" so it can encode
 * them; same lines, same glyph count). Warm: each run renders PDF_RENDERS_PER_RUN documents after
 * a warm-up; runs interleave with the ceiling's; median of PDF_RUNS.
 */
const PDF_RUNS = 3;
const PDF_RENDERS_PER_RUN = 20;

const item = (position: number, name: string, description: string | null, quantity: number) => ({
  id: `item-${position}`,
  product_id: null,
  position,
  name,
  description,
  unit: "pcs",
  quantity,
  unit_price: 1299 + position * 100,
  line_total: quantity * (1299 + position * 100),
});

const NAMES: [string, string | null][] = [
  ["不锈钢保温杯 500 ml", "双层真空，304不锈钢 / double wall, vacuum insulated"],
  ["Bamboo lid", "Natural finish, food-safe silicone seal"],
  ["陶瓷咖啡杯 礼盒装", null],
  ["Custom logo printing", "Two colours, one side"],
  ["玻璃水瓶 带滤网", "高硼硅玻璃"],
  ["Gift box with magnetic closure", null],
  ["硅胶杯套", null],
  ["Shipping carton, 5-ply", "48 pieces per carton"],
];
const items = NAMES.map(([name, description], i) => item(i + 1, name, description, 100 * (i + 1)));
const subtotal = items.reduce((sum, i) => sum + i.line_total, 0);

type Stamp = QuotationDocument["quotation"]["created_at"];

/** Ordinary product copy, ~420 characters, varied per item (the heavy 200-item quotation). */
const productCopy = (n: number) =>
  `Model ${n}: double wall stainless steel, vacuum insulated, keeps drinks hot for 12 hours and cold for 24. Powder coated finish, ${n % 12} colours; custom logo by laser engraving or silk screen. Packing: 1 pc per white box, 48 pcs per 5-ply carton. 双层真空不锈钢保温杯，可定制logo。MOQ 500 pcs per colour; lead time 30 days after deposit; sample 7 days, free of charge, freight collect.`;

/**
 * Issue 20's inputs, within today's caps (ADR 0083): the layout before took 192 s for the first.
 * Each as the items of a quotation, the rest of the document as BENCH_QUOTATION's.
 */
const HEAVY_ITEMS: [string, QuotationDocument["quotation"]["items"]][] = [
  ["2,000 characters without a space", [item(1, "Cup", "W".repeat(2000), 1)]],
  [
    "5,000 CJK characters",
    [item(1, "不锈钢保温杯".repeat(50), "不锈钢保温杯双层真空".repeat(500), 1)],
  ],
  [
    "200 items of product copy",
    Array.from({ length: 200 }, (_, i) => item(i + 1, `Vacuum cup ${i + 1}`, productCopy(i), 10)),
  ],
];

/**
 * Issue 23: the bench quotation with 1 line and with 120 (the lines cycle through NAMES), to
 * show what a long quotation costs beside a short one. The aim: 120 lines in under 10 times the
 * one line's time (the document's fixed cost, font subset and file, is paid once).
 */
export const LINES_AIM_RATIO = 10;
const LINE_COUNTS = [1, 120] as const;

function withLines(count: number): QuotationDocument {
  const lines = Array.from({ length: count }, (_, i) => {
    const [name, description] = NAMES[i % NAMES.length]!;
    return item(i + 1, name, description, 10 * (i + 1));
  });
  const sum = lines.reduce((total, i) => total + i.line_total, 0);
  return {
    ...BENCH_QUOTATION,
    quotation: {
      ...BENCH_QUOTATION.quotation,
      items: lines,
      subtotal: sum,
      total: sum - 1001 + 4999,
    },
  };
}

/** The aim of a heavy document, whole: issue 20's "finishes in under a second". */
export const HEAVY_PDF_AIM_MS = 1000;

/** One page: seller, customer, 8 items (half Chinese), totals, an exchange rate, notes. */
const BENCH_QUOTATION: QuotationDocument = {
  quotation: {
    id: "bench",
    org_id: "bench-org",
    user_id: "bench-seller",
    owner_name: "Li Wei",
    quote_no: "Q-20261124-042",
    customer_id: null,
    status: "draft",
    currency: "USD",
    incoterm: "FOB",
    valid_until: "2026-12-31",
    subtotal,
    discount: 1001,
    shipping: 4999,
    total: subtotal - 1001 + 4999,
    notes: "交货期：30天。Payment 30% T/T in advance, balance against the B/L copy.",
    exchange_rates: [
      { from: "CNY", to: "USD", rate: "0.139831546723", date: "2024-01-04", source: "ECB" },
    ],
    // The service's row mapper spreads a generic row, so its type says `Date & string` for
    // these; what it returns, and what the renderer reads, is the ISO string.
    created_at: "2026-11-24T04:00:00.000Z" as Stamp,
    updated_at: "2026-11-24T04:00:00.000Z" as Stamp,
    items,
    // Cast: the row's later columns (revision, named place...) are not part of this page.
  } as QuotationDocument["quotation"],
  parties: {
    seller_name: "李伟 Li Wei",
    seller_company: "宁波杯业有限公司 Ningbo Cups Co.",
    seller_email: "li.wei@example.com",
    seller_phone: "+86 574 8888 0000",
    seller_country: "CN",
    customer_company: "Acme GmbH",
    customer_contact: "Anna Schmidt",
    customer_email: "anna@acme.example",
    customer_country: "DE",
  },
};

/** The same document with every character Helvetica (WinAnsi) cannot encode as "?". */
function latinOnly(doc: QuotationDocument): QuotationDocument {
  const latin = <T extends string | null>(value: T): T =>
    (value === null ? value : value.replace(/[^\x20-\x7e]/g, "?")) as T;
  const parties = Object.fromEntries(
    Object.entries(doc.parties).map(([key, value]) => [key, latin(value)]),
  ) as QuotationDocument["parties"];
  return {
    parties,
    quotation: {
      ...doc.quotation,
      notes: latin(doc.quotation.notes),
      items: doc.quotation.items.map((i) => ({
        ...i,
        name: latin(i.name),
        description: latin(i.description),
      })),
    },
  };
}

async function renderWithStandardFont(doc: QuotationDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  return drawQuotation(pdf, font, doc);
}

/** The embedded font program: its stream in the PDF (Flate) and the TrueType subset inside. */
async function embeddedFont(bytes: Uint8Array): Promise<{ stream: number; subset: number }> {
  const pdf = await PDFDocument.load(bytes);
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const ref = object.get(PDFName.of("FontFile2")) ?? object.get(PDFName.of("FontFile3"));
    if (!ref) continue;
    const stream = pdf.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    return {
      stream: stream.getContentsSize(),
      subset: decodePDFRawStream(stream).decode().byteLength,
    };
  }
  throw new Error("no embedded font program in the quotation PDF");
}

async function meanMs(renders: number, render: () => Promise<Uint8Array>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < renders; i++) await render();
  return (performance.now() - started) / renders;
}

export interface PdfResult {
  /** Median over runs of the mean wall time of one render, ms. */
  renderMs: number;
  ceilingMs: number;
  /** renderMs / ceilingMs: what the embedded CJK font costs in time. */
  ratio: number;
  /** The first render in this process: pdf-lib and fontkit imports, font parse. */
  firstMs: number;
  runs: { renderMs: number; ceilingMs: number }[];
  pdfBytes: number;
  ceilingPdfBytes: number;
  /** The font program as stored in the PDF (compressed) and as TrueType (decoded). */
  fontStreamBytes: number;
  fontSubsetBytes: number;
  /** The TrueType file the subset is cut from. */
  fullFontBytes: number;
  /** /health on the bench's server while heavy exports run (bench/documents.ts). */
  healthDuringDocuments?: HealthDuringDocuments;
  /** Issue 20's heavy inputs (HEAVY_ITEMS), warm, median of PDF_RUNS renders each. */
  heavy: { label: string; renderMs: number; pages: number }[];
  /** Issue 23: 1 line against 120 lines, warm, median of PDF_RUNS (each a mean of renders). */
  lines: { oneMs: number; manyMs: number; ratio: number; pages: number; runs: [number, number][] };
}

export async function measurePdf(log: (line?: string) => void): Promise<PdfResult> {
  const fontBytes = await nodeCjkFont();
  const doc = BENCH_QUOTATION;
  const ceilingDoc = latinOnly(doc);
  let started = performance.now();
  const pdf = await renderQuotationPdf(doc, fontBytes);
  const firstMs = performance.now() - started;
  const ceilingPdf = await renderWithStandardFont(ceilingDoc);
  const font = await embeddedFont(pdf);
  log(
    `pdf: first render ${fmt(firstMs)} ms (imports, font parse); ${fmt(pdf.byteLength / 1024, 1)} KB, font ${fmt(font.stream / 1024, 1)} KB`,
  );

  // Warm-up: the JIT and fontkit's glyph caches, as on a server that has exported before.
  started = performance.now();
  while (performance.now() - started < 2000) {
    await renderQuotationPdf(doc, fontBytes);
    await renderWithStandardFont(ceilingDoc);
  }
  const runs: PdfResult["runs"] = [];
  for (let i = 0; i < PDF_RUNS; i++) {
    const renderMs = await meanMs(PDF_RENDERS_PER_RUN, () => renderQuotationPdf(doc, fontBytes));
    const ceilingMs = await meanMs(PDF_RENDERS_PER_RUN, () => renderWithStandardFont(ceilingDoc));
    runs.push({ renderMs, ceilingMs });
    log(`  run ${i + 1}: ${fmt(renderMs, 1)} ms / ceiling ${fmt(ceilingMs, 1)} ms per PDF`);
  }
  const renderMs = median(runs.map((r) => r.renderMs));
  const ceilingMs = median(runs.map((r) => r.ceilingMs));
  const heavy: PdfResult["heavy"] = [];
  for (const [label, heavyItems] of HEAVY_ITEMS) {
    const heavyDoc = { ...doc, quotation: { ...doc.quotation, items: heavyItems } };
    let bytes = await renderQuotationPdf(heavyDoc, fontBytes);
    const times: number[] = [];
    for (let i = 0; i < PDF_RUNS; i++) {
      started = performance.now();
      bytes = await renderQuotationPdf(heavyDoc, fontBytes);
      times.push(performance.now() - started);
    }
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    heavy.push({ label, renderMs: median(times), pages });
    log(`  heavy, ${label}: ${times.map((t) => fmt(t)).join(", ")} ms (${pages} pages)`);
  }
  const [oneDoc, manyDoc] = LINE_COUNTS.map(withLines) as [QuotationDocument, QuotationDocument];
  const manyPages = (
    await PDFDocument.load(await renderQuotationPdf(manyDoc, fontBytes))
  ).getPageCount();
  await renderQuotationPdf(oneDoc, fontBytes);
  const lineRuns: [number, number][] = [];
  for (let i = 0; i < PDF_RUNS; i++) {
    const oneMs = await meanMs(10, () => renderQuotationPdf(oneDoc, fontBytes));
    const manyMs = await meanMs(3, () => renderQuotationPdf(manyDoc, fontBytes));
    lineRuns.push([oneMs, manyMs]);
    log(
      `  lines, run ${i + 1}: 1 line ${fmt(oneMs, 1)} ms / 120 lines ${fmt(manyMs, 1)} ms per PDF`,
    );
  }
  const oneMs = median(lineRuns.map((r) => r[0]));
  const manyMs = median(lineRuns.map((r) => r[1]));
  return {
    lines: { oneMs, manyMs, ratio: manyMs / oneMs, pages: manyPages, runs: lineRuns },
    heavy,
    renderMs,
    ceilingMs,
    ratio: renderMs / ceilingMs,
    firstMs,
    runs,
    pdfBytes: pdf.byteLength,
    ceilingPdfBytes: ceilingPdf.byteLength,
    fontStreamBytes: font.stream,
    fontSubsetBytes: font.subset,
    fullFontBytes: fontBytes.byteLength,
  };
}

const kb = (bytes: number) => fmt(bytes / 1024, 1);

/** The report's section, in bench/report.ts's style: each figure beside its ceiling. */
export function pdfReport(r: PdfResult): string[] {
  return [
    `Quotation PDF (renderQuotationPdf in the bench process: one A4 page, ${BENCH_QUOTATION.quotation.items.length} items, Chinese and Latin, Noto Sans SC subset through fontkit 2);`,
    `  ceiling: pdf-lib drawing the same page with Helvetica (standard font, nothing embedded; non-Latin characters as "?").`,
    `  Warm: ${PDF_RENDERS_PER_RUN} renders per run after a 2 s warm-up, median of ${PDF_RUNS} runs interleaved with the ceiling's.`,
    table(
      ["", "figure", "ceiling", "ratio"],
      [
        ["render ms per PDF", fmt(r.renderMs, 1), fmt(r.ceilingMs, 1), fmt(r.ratio, 2)],
        ["PDF KB", kb(r.pdfBytes), kb(r.ceilingPdfBytes), fmt(r.pdfBytes / r.ceilingPdfBytes, 2)],
        [
          "embedded font KB (in the PDF / TrueType subset)",
          `${kb(r.fontStreamBytes)} / ${kb(r.fontSubsetBytes)}`,
          `${kb(r.fullFontBytes)} (whole font)`,
          fmt(r.fontSubsetBytes / r.fullFontBytes, 4),
        ],
      ],
    ),
    `  per run ms: ${r.runs.map((run) => `${fmt(run.renderMs, 1)}/${fmt(run.ceilingMs, 1)}`).join(", ")} (PDF/ceiling); first render in the process ${fmt(r.firstMs)} ms (imports, font parse).`,
    `  Heavy quotations (issue 20's inputs within the caps, ADR 0083), warm, median of ${PDF_RUNS}, beside the one-page PDF above and an aim of ${HEAVY_PDF_AIM_MS} ms:`,
    table(
      ["", "render ms", "pages", "x one-page PDF", "aim ms", ""],
      r.heavy.map((h) => [
        h.label,
        fmt(h.renderMs, 1),
        String(h.pages),
        fmt(h.renderMs / r.renderMs, 1),
        String(HEAVY_PDF_AIM_MS),
        h.renderMs < HEAVY_PDF_AIM_MS ? "MET" : "MISSED",
      ]),
    ),
    `  Lines (issue 23): the same quotation with 1 line and with 120 (${r.lines.pages} pages), warm, median of ${PDF_RUNS} runs; ceiling: ${LINES_AIM_RATIO} x the 1-line PDF (the aim):`,
    table(
      ["", "figure", "ceiling", "ratio", ""],
      [
        ["1-line PDF ms", fmt(r.lines.oneMs, 1), "", "1.00", ""],
        [
          "120-line PDF ms",
          fmt(r.lines.manyMs, 1),
          fmt(LINES_AIM_RATIO * r.lines.oneMs, 1),
          fmt(r.lines.ratio, 2),
          r.lines.ratio < LINES_AIM_RATIO ? "MET" : "MISSED",
        ],
      ],
    ),
    `  per run ms (1 line/120 lines): ${r.lines.runs.map(([one, many]) => `${fmt(one, 1)}/${fmt(many, 1)}`).join(", ")}.`,
    ...(r.healthDuringDocuments ? healthDuringDocumentsReport(r.healthDuringDocuments) : []),
  ];
}

// `npx tsx bench/pdf.ts`: this section alone, without the rest of `npm run bench`.
if (process.argv[1]?.endsWith("bench/pdf.ts")) {
  const result = await measurePdf((line = "") => console.log(line));
  console.log();
  for (const line of pdfReport(result)) console.log(line);
}

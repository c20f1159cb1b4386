import type { PDFDocument, PDFFont, PDFPage } from "pdf-lib";
import { displayRateLine } from "../exchange/display";
import { formatMinor } from "./money";
import { pdfFontkit } from "./pdf-fontkit";
import { fontAdvance, wrapText } from "./text-wrap";
import type { QuotationDocument } from "./view";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
/** Between an item's rule and the next item's baseline: room for 10 pt capitals. */
const ROW_GAP = 10;

/**
 * OpenType positioning features, off when fontkit lays text out for pdf-lib. pdf-lib writes only
 * the glyph ids and their advance widths (no positioning operators), so kerning and mark
 * placement were computed and thrown away on every line drawn and measured: the same glyphs
 * and widths come out without them, in about 60% of the time (substitutions such as ligatures
 * and locale forms stay on).
 */
const POSITIONING_OFF = { kern: false, mark: false, mkmk: false };

/**
 * The quotation as an A4 PDF. `fontBytes` is a CJK-capable TrueType font; only the glyphs the
 * document uses are embedded (pdf-lib subsetting through upstream fontkit 2, pdf-fontkit.ts), so
 * a one-page quotation stays in the tens of kilobytes although the font is megabytes. Runs on
 * Node and Workers alike.
 */
export async function renderQuotationPdf(
  doc: QuotationDocument,
  fontBytes: Uint8Array,
): Promise<Uint8Array> {
  // Loaded on the first export, not at start-up (pdf-lib and fontkit cost ~300 ms to import).
  const [{ PDFDocument }, fontkit] = await Promise.all([import("pdf-lib"), pdfFontkit()]);
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(fontBytes, { subset: true, features: POSITIONING_OFF });
  return drawQuotation(pdf, font, doc);
}

/**
 * Lays the quotation out in `pdf` with `font` and serialises it. Kept apart from the font
 * embedding so the bench can draw the very same page with a standard font (its ceiling,
 * bench/pdf.ts).
 */
export async function drawQuotation(
  pdf: PDFDocument,
  font: PDFFont,
  { quotation: q, parties: p }: QuotationDocument,
): Promise<Uint8Array> {
  const { rgb } = await import("pdf-lib");
  const GREY = rgb(0.4, 0.4, 0.4);
  const LINE = rgb(0.8, 0.8, 0.8);
  pdf.setTitle(`Quotation ${q.quote_no}`);
  pdf.setProducer("Trade assistant");
  pdf.setCreationDate(new Date(q.created_at));

  let page: PDFPage = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const width = A4[0] - 2 * MARGIN;
  const newPage = () => {
    page = pdf.addPage(A4);
    y = A4[1] - MARGIN;
  };
  const text = (value: string, x: number, size: number, color = rgb(0, 0, 0)) =>
    page.drawText(value, { x, y, size, font, color });
  const rightText = (value: string, right: number, size: number) =>
    text(value, right - font.widthOfTextAtSize(value, size), size);

  text("QUOTATION", MARGIN, 20);
  rightText(q.quote_no, MARGIN + width, 12);
  y -= 30;

  const left: [string, string][] = [
    ["Seller", [p.seller_company, p.seller_name].filter(Boolean).join(" / ")],
    ["", [p.seller_email, p.seller_phone, p.seller_country].filter(Boolean).join(" / ")],
    ["Customer", [p.customer_company, p.customer_contact].filter(Boolean).join(" / ")],
    ["", [p.customer_email, p.customer_country].filter(Boolean).join(" / ")],
  ];
  const right: [string, string][] = [
    ["Date", q.created_at.slice(0, 10)],
    ["Valid until", q.valid_until ?? "-"],
    ["Incoterm", q.incoterm ?? "-"],
    ["Currency", q.currency],
  ];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const [label, value] = left[i] ?? ["", ""];
    if (label) text(label, MARGIN, 9, GREY);
    text(value.slice(0, 80), MARGIN + 60, 10);
    const [rLabel, rValue] = right[i] ?? ["", ""];
    if (rLabel) text(rLabel, MARGIN + width - 160, 9, GREY);
    rightText(rValue, MARGIN + width, 10);
    y -= 15;
  }
  y -= 10;

  // Items table: No. | Product (and description) | Qty | Unit | Unit price | Amount
  const cols = {
    no: MARGIN,
    name: MARGIN + 28,
    qty: MARGIN + 330,
    unit: MARGIN + 340,
    price: MARGIN + 440,
    amount: MARGIN + width,
  };
  const header = () => {
    page.drawRectangle({ x: MARGIN, y: y - 5, width, height: 18, color: rgb(0.91, 0.93, 0.97) });
    text("No.", cols.no + 2, 9);
    text("Product", cols.name, 9);
    rightText("Qty", cols.qty, 9);
    text("Unit", cols.unit, 9);
    rightText(`Unit price`, cols.price, 9);
    rightText(`Amount (${q.currency})`, cols.amount, 9);
    y -= 22;
  };
  header();
  const nameWidth = cols.qty - cols.name - 60;
  const nameAdvance = fontAdvance(font, 10);
  const descAdvance = fontAdvance(font, 8);
  for (const item of q.items) {
    const nameLines = wrapText(item.name, nameAdvance, nameWidth);
    const descLines = item.description ? wrapText(item.description, descAdvance, nameWidth) : [];
    const height = nameLines.length * 13 + descLines.length * 10 + ROW_GAP;
    if (y - height < MARGIN + 80) {
      newPage();
      header();
    }
    text(String(item.position), cols.no + 2, 10);
    rightText(item.quantity.toLocaleString("en-US"), cols.qty, 10);
    text(item.unit, cols.unit, 10);
    rightText(formatMinor(item.unit_price, q.currency), cols.price, 10);
    rightText(formatMinor(item.line_total, q.currency), cols.amount, 10);
    // A row taller than a page (a long description) goes on over the next pages, under the
    // table's header, instead of running off the bottom of this one.
    const line = (value: string, size: number, step: number, color?: typeof GREY) => {
      if (y - step < MARGIN) {
        newPage();
        header();
      }
      text(value, cols.name, size, color);
      y -= step;
    };
    for (const value of nameLines) line(value, 10, 13);
    for (const value of descLines) line(value, 8, 10, GREY);
    // The rule sits under the row's descenders and clear of the next row's capitals (drawn
    // 4 pt above the next baseline, it struck through that row's text).
    page.drawLine({
      start: { x: MARGIN, y: y + 4 },
      end: { x: MARGIN + width, y: y + 4 },
      thickness: 0.5,
      color: LINE,
    });
    y -= ROW_GAP;
  }

  if (y < MARGIN + 120) newPage();
  y -= 8;
  const totals: [string, string][] = [
    ["Subtotal", formatMinor(q.subtotal, q.currency)],
    [
      "Discount",
      q.discount ? `-${formatMinor(q.discount, q.currency)}` : formatMinor(0, q.currency),
    ],
    ["Shipping", formatMinor(q.shipping, q.currency)],
    [`Total (${q.currency})`, formatMinor(q.total, q.currency)],
  ];
  for (const [label, value] of totals) {
    const size = label.startsWith("Total") ? 12 : 10;
    text(label, cols.price - 60, size);
    rightText(value, cols.amount, size);
    y -= size + 6;
  }
  if (q.exchange_rates.length > 0) {
    // The rates the prices were converted at, as frozen with the quotation: 6 significant
    // digits beside their source and day, as the xlsx shows them (the exact rate stays in the
    // API answer; the prices were computed from it, never from the shortened figure).
    y -= 12;
    if (y < MARGIN + 13 * (q.exchange_rates.length + 1)) newPage();
    text(q.exchange_rates.length > 1 ? "Exchange rates" : "Exchange rate", MARGIN, 9, GREY);
    y -= 13;
    for (const rate of q.exchange_rates) {
      text(displayRateLine(rate), MARGIN, 9);
      y -= 12;
    }
  }
  if (q.notes) {
    y -= 12;
    text("Notes", MARGIN, 9, GREY);
    y -= 13;
    for (const line of wrapText(q.notes, fontAdvance(font, 9), width)) {
      if (y < MARGIN) newPage();
      text(line, MARGIN, 9);
      y -= 12;
    }
  }
  // Plain cross-reference objects (no object streams): any PDF reader, and the font's
  // descriptor stays inspectable.
  return pdf.save({ useObjectStreams: false });
}

import type { PDFDocument, PDFFont, PDFImage, PDFPage } from "pdf-lib";
import { base64Decode } from "../../lib/crypto";
import { displayRateLine } from "../exchange/display";
import { formatMinor } from "./money";
import { pdfFontkit } from "./pdf-fontkit";
import { type Advance, fontAdvance, wrapText } from "./text-wrap";
import type { QuotationDocument } from "./view";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const WIDTH = A4[0] - 2 * MARGIN;
/** The header's right column (title, number, dates); the left one takes the rest. */
const RIGHT_COL = 215;
const GUTTER = 20;
const LEFT_COL = WIDTH - RIGHT_COL - GUTTER;

/**
 * The size of an item's name and figures: one size, so the row's cells share their baseline
 * (OCR, and a reader's eye, follow a row along it; top-aligned cells of two sizes sat a point
 * apart and tesseract read the Chinese name of such a row as Latin noise).
 */
const ROW_SIZE = 10;

/** The items table's columns: No. | Product (and description) | Qty | Unit | Unit price | Amount. */
const COLUMNS = {
  no: { x: MARGIN, w: 22 },
  name: { x: MARGIN + 26, w: 229 },
  qty: { x: MARGIN + 259, w: 52 },
  unit: { x: MARGIN + 317, w: 38 },
  price: { x: MARGIN + 359, w: 72 },
  amount: { x: MARGIN + 435, w: WIDTH - 435 },
};

/** The page's geometry, in points from the bottom left, for tests that check what lies where. */
export const PDF_LAYOUT = {
  page: A4,
  margin: MARGIN,
  width: WIDTH,
  /** The header's seller (left) and title/number (right) columns. */
  left: { x: MARGIN, w: LEFT_COL },
  right: { x: MARGIN + WIDTH - RIGHT_COL, w: RIGHT_COL },
  columns: COLUMNS,
} as const;

/**
 * OpenType positioning features, off when fontkit lays text out for pdf-lib. pdf-lib writes only
 * the glyph ids and their advance widths (no positioning operators), so kerning and mark
 * placement were computed and thrown away on every line drawn and measured: the same glyphs
 * and widths come out without them, in about 60% of the time (substitutions such as ligatures
 * and locale forms stay on).
 */
const POSITIONING_OFF = { kern: false, mark: false, mkmk: false };

/**
 * The quotation (or its proforma invoice) as an A4 PDF. `fontBytes` is a CJK-capable TrueType
 * font; only the glyphs the document uses are embedded (pdf-lib subsetting through upstream
 * fontkit 2, pdf-fontkit.ts), so a one-page quotation stays in the tens of kilobytes although the
 * font is megabytes. Runs on Node and Workers alike.
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

/** Control characters draw as nothing or as a missing glyph: a space instead (line breaks kept). */
const clean = (value: string | null | undefined): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are the point
  (value ?? "").replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g, " ").trim();

/** The base64 (or data: URL) or bytes of a PNG or JPEG logo, as bytes; undefined when neither. */
function logoBytes(logo: Uint8Array | string | null | undefined): Uint8Array | undefined {
  if (!logo) return undefined;
  if (logo instanceof Uint8Array) return logo;
  try {
    return base64Decode(logo.replace(/^data:[^,]*,/, "").replace(/\s+/g, ""));
  } catch {
    return undefined;
  }
}

async function embedLogo(
  pdf: PDFDocument,
  logo: QuotationDocument["seller"],
): Promise<PDFImage | undefined> {
  const bytes = logoBytes(logo?.logo);
  if (!bytes || bytes.length < 8) return undefined;
  try {
    if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
      return await pdf.embedPng(bytes);
    }
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return await pdf.embedJpg(bytes);
  } catch {
    // A logo pdf-lib cannot read (interlaced PNG, CMYK JPEG): the document goes out without it.
  }
  return undefined;
}

/** One line of text as laid out: its size and colour. */
interface Line {
  text: string;
  size: number;
  grey?: boolean;
}

/** The words a document shows for its kind: title, numbers, dates. */
function headings(doc: QuotationDocument) {
  const q = doc.quotation;
  const suffix = doc.revision ? `-R${doc.revision}` : "";
  const quoteNo = suffix && !q.quote_no.endsWith(suffix) ? `${q.quote_no}${suffix}` : q.quote_no;
  const proforma = doc.kind === "proforma";
  const validity = doc.seller?.validity_days;
  const info: [string, string][] = proforma
    ? [
        ["Proforma no.", doc.proforma?.proforma_no ?? "-"],
        ["Issue date", doc.proforma?.issue_date ?? q.created_at.slice(0, 10)],
        ["Quotation", quoteNo],
        ["Currency", q.currency],
      ]
    : [
        ["Quotation no.", quoteNo],
        ["Date", q.created_at.slice(0, 10)],
        [
          "Valid until",
          `${q.valid_until ?? "-"}${validity ? ` (${validity} days)` : ""}`.replace(/^- \(/, "("),
        ],
        ["Currency", q.currency],
      ];
  return {
    title: proforma ? "PROFORMA INVOICE" : "QUOTATION",
    number: proforma ? (doc.proforma?.proforma_no ?? quoteNo) : quoteNo,
    info,
  };
}

/**
 * Lays the document out in `pdf` with `font` and serialises it. Kept apart from the font
 * embedding so the bench can draw the very same pages with a standard font (its ceiling,
 * bench/pdf.ts).
 *
 * Every piece of text is measured with the font (character advances, text-wrap.ts) and wrapped
 * inside its box; a line advances by more than the font's ascent plus descent, so no two lines'
 * boxes meet. The header grows with what it holds; the items table breaks over pages with its
 * column heads and the document's number repeated; the totals never stand alone (the last line
 * of the last item goes with them); every page says "Page x of y" and the seller's footer.
 */
export async function drawQuotation(
  pdf: PDFDocument,
  font: PDFFont,
  doc: QuotationDocument,
): Promise<Uint8Array> {
  const { rgb } = await import("pdf-lib");
  const BLACK = rgb(0, 0, 0);
  const GREY = rgb(0.38, 0.38, 0.38);
  const RULE = rgb(0.8, 0.8, 0.8);
  const HEAD_FILL = rgb(0.91, 0.93, 0.97);
  const { quotation: q, parties: p } = doc;
  const seller = doc.seller ?? {};
  const buyer = doc.buyer ?? {};
  const trade = doc.trade ?? {};
  const { title, number, info } = headings(doc);
  pdf.setTitle(`${title === "QUOTATION" ? "Quotation" : "Proforma invoice"} ${number}`);
  pdf.setProducer("Trade assistant");
  pdf.setCreationDate(new Date(q.created_at));

  // Vertical metrics: a line's box runs from its top to ascent + descent below; lines step by
  // a little more, so the boxes readers compute (pdftotext -bbox) never overlap.
  const ascent = font.heightAtSize(1, { descender: false });
  const lead = Math.max(1.3, font.heightAtSize(1) * 1.06);
  const step = (size: number) => size * lead;
  const advances = new Map<number, Advance>();
  const advance = (size: number) => {
    let a = advances.get(size);
    if (!a) {
      a = fontAdvance(font, size);
      advances.set(size, a);
    }
    return a;
  };
  const measure = (value: string, size: number) => {
    const a = advance(size);
    let total = 0;
    for (const char of value) total += a(char);
    return total;
  };
  const wrap = (value: string | null | undefined, size: number, width: number, grey = false) => {
    const text = clean(value);
    if (!text) return [] as Line[];
    return wrapText(text, advance(size), width)
      .filter((line, i, all) => line !== "" || (i > 0 && i < all.length - 1))
      .map((line): Line => ({ text: line, size, grey }));
  };
  const height = (lines: Line[]) => lines.reduce((sum, l) => sum + step(l.size), 0);

  // Footer: the seller's footer text and the page number, on every page.
  const footerLines = wrap(seller.footer, 7.5, WIDTH - 100, true);
  const footerHeight = Math.max(height(footerLines), step(8));
  const bottom = MARGIN + footerHeight + 8;

  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  /** Whether a new page continues the items table (and so repeats its column heads). */
  let inTable = false;

  const draw = (line: Line, x: number, top: number) => {
    if (line.text === "") return;
    page.drawText(line.text, {
      x,
      y: top - line.size * ascent,
      size: line.size,
      font,
      color: line.grey ? GREY : BLACK,
    });
  };
  /** Lines from `top` down at `x`, left-aligned or against `x + width` on the right. */
  const drawLines = (lines: Line[], x: number, top: number, width?: number) => {
    let at = top;
    for (const line of lines) {
      const left = width === undefined ? x : x + width - measure(line.text, line.size);
      draw(line, left, at);
      at -= step(line.size);
    }
    return top - at;
  };

  const col = COLUMNS;
  const headCells: [keyof typeof col, string, boolean][] = [
    ["no", "No.", false],
    ["name", "Product", false],
    ["qty", "Qty", true],
    ["unit", "Unit", false],
    ["price", "Unit price", true],
    ["amount", `Amount (${q.currency})`, true],
  ];
  const columnHeads = () => {
    const cells = headCells.map(([key, label, right]) => ({
      key,
      right,
      lines: wrap(label, 8.5, col[key].w),
    }));
    const h = Math.max(...cells.map((c) => height(c.lines))) + 6;
    page.drawRectangle({ x: MARGIN, y: y - h, width: WIDTH, height: h, color: HEAD_FILL });
    for (const c of cells) {
      drawLines(c.lines, col[c.key].x, y - 3, c.right ? col[c.key].w : undefined);
    }
    y -= h + 4;
  };

  const newPage = () => {
    page = pdf.addPage(A4);
    pages.push(page);
    y = A4[1] - MARGIN;
    if (pages.length > 1) {
      // Continuation: which document this page belongs to, then the column heads.
      const lines = wrap(`${title} ${number} (continued)`, 9, WIDTH, true);
      y -= drawLines(lines, MARGIN, y) + 6;
      if (inTable) columnHeads();
    }
  };
  /** A new page unless `h` points still fit above the footer. */
  const ensure = (h: number) => {
    if (y - h < bottom) newPage();
  };
  /** Lines down from y at x, each on the page it fits on (a block may go on over pages). */
  const flow = (lines: Line[], x: number) => {
    for (const line of lines) {
      ensure(step(line.size));
      draw(line, x, y);
      y -= step(line.size);
    }
  };
  /**
   * Two columns side by side from y: the right one (short: labels and values) drawn first, the
   * left one flowed, so a long name goes on over the next page rather than off this one.
   */
  const columns = (drawRight: (top: number) => number, leftLines: Line[], x: number) => {
    const startPage = page;
    const rightBottom = drawRight(y);
    flow(leftLines, x);
    if (page === startPage) y = Math.min(y, rightBottom);
  };
  const rule = () => {
    page.drawLine({
      start: { x: MARGIN, y },
      end: { x: MARGIN + WIDTH, y },
      thickness: 0.5,
      color: RULE,
    });
  };

  newPage();

  // Header: seller (logo, name, address, contacts) on the left; title and numbers on the right.
  const logo = await embedLogo(pdf, doc.seller);
  const sellerName = seller.legal_name || p.seller_company || p.seller_name || "";
  const contactParts = [
    seller.phone || p.seller_phone ? `Tel ${seller.phone || p.seller_phone}` : "",
    seller.email || p.seller_email ? `Email ${seller.email || p.seller_email}` : "",
    seller.website ? `Web ${seller.website}` : "",
  ].filter(Boolean);
  const sellerLines = [
    ...wrap(sellerName, 13, LEFT_COL),
    ...wrap(seller.address, 9, LEFT_COL),
    ...(seller.address ? [] : wrap(p.seller_country, 9, LEFT_COL)),
    ...contactParts.flatMap((part) => wrap(part, 9, LEFT_COL)),
    ...(p.seller_name && p.seller_name !== sellerName
      ? wrap(`Contact: ${p.seller_name}`, 9, LEFT_COL)
      : []),
  ];
  const rightX = MARGIN + WIDTH - RIGHT_COL;
  const LABEL_W = 74;
  /** Label and value rows in the right column from `top`; returns where they end. */
  const labelled = (rows: [string, string][], top: number) => {
    let at = top;
    for (const [label, value] of rows) {
      const labelLines = wrap(label, 8.5, LABEL_W - 4, true);
      drawLines(labelLines, rightX, at);
      const valueHeight = drawLines(wrap(value, 9.5, RIGHT_COL - LABEL_W), rightX + LABEL_W, at);
      at -= Math.max(valueHeight, height(labelLines));
    }
    return at;
  };
  const titleHeight = drawLines(wrap(title, 17, RIGHT_COL), rightX, y, RIGHT_COL) + 4;
  const headerRight = labelled(info, y - titleHeight);
  if (logo) {
    const scale = Math.min(150 / logo.width, 48 / logo.height, 1);
    page.drawImage(logo, {
      x: MARGIN,
      y: y - logo.height * scale,
      width: logo.width * scale,
      height: logo.height * scale,
    });
    y -= logo.height * scale + 6;
  }
  const headerPage = page;
  flow(sellerLines, MARGIN);
  if (page === headerPage) y = Math.min(y, headerRight);
  y -= 8;
  rule();
  y -= 8;

  // Parties and terms: the buyer on the left; Incoterm, port, lead time on the right.
  const buyerName = buyer.company || p.customer_company;
  const buyerLines = [
    ...wrap(doc.kind === "proforma" ? "Buyer" : "Customer", 8.5, LEFT_COL, true),
    ...wrap(buyerName || "-", 11, LEFT_COL),
    ...wrap(buyer.contact || p.customer_contact, 9.5, LEFT_COL),
    ...wrap(buyer.address, 9, LEFT_COL),
    ...wrap(buyer.country || p.customer_country, 9, LEFT_COL),
    ...wrap(p.customer_email, 9, LEFT_COL),
  ];
  const incoterm = [trade.incoterm || q.incoterm, trade.named_place].filter(Boolean).join(" ");
  const terms: [string, string][] = [
    ["Incoterm", incoterm],
    ["Port of loading", clean(trade.port_of_loading)],
    ["Lead time", clean(trade.lead_time)],
  ].filter(([, value]) => value) as [string, string][];
  columns((top) => labelled(terms, top), buyerLines, MARGIN);
  y -= 10;

  // Totals (and for a proforma the deposit and balance), laid out now: the last item's last
  // line is kept on the page that holds them.
  const money = (minor: number) => formatMinor(minor, q.currency);
  const totals: [string, string, number][] = [
    ["Subtotal", money(q.subtotal), 9.5],
    [
      q.discount && q.subtotal
        ? `Discount (${((100 * q.discount) / q.subtotal).toFixed(1).replace(/\.0$/, "")}%)`
        : "Discount",
      q.discount ? `-${money(q.discount)}` : money(0),
      9.5,
    ],
    ["Shipping", money(q.shipping), 9.5],
    [`Total (${q.currency})`, money(q.total), 11.5],
  ];
  if (doc.kind === "proforma" && doc.proforma) {
    const percent = doc.proforma.deposit_percent;
    totals.push(
      [
        `Deposit${percent != null ? ` (${percent}%)` : ""} due now`,
        money(doc.proforma.deposit),
        9.5,
      ],
      ["Balance", money(doc.proforma.balance), 9.5],
    );
  }
  const TOTAL_LABEL_X = col.price.x - 60;
  const totalRows = totals.map(([label, value, size]) => ({
    label: wrap(label, size, col.amount.x - TOTAL_LABEL_X - 6),
    value: wrap(value, size, col.amount.w),
  }));
  const totalsHeight =
    8 + totalRows.reduce((sum, r) => sum + Math.max(height(r.label), height(r.value)), 0);

  inTable = true;
  columnHeads();
  const lastIndex = q.items.length - 1;
  q.items.forEach((item, index) => {
    const last = index === lastIndex;
    const nameLines = [
      ...wrap(item.name, ROW_SIZE, col.name.w),
      ...wrap(item.description, 8, col.name.w, true),
    ];
    const cells: [keyof typeof col, Line[], boolean][] = [
      ["no", wrap(String(item.position), ROW_SIZE, col.no.w), false],
      ["qty", wrap(Number(item.quantity).toLocaleString("en-US"), ROW_SIZE, col.qty.w), true],
      ["unit", wrap(item.unit, ROW_SIZE, col.unit.w), false],
      ["price", wrap(money(item.unit_price), ROW_SIZE, col.price.w), true],
      ["amount", wrap(money(item.line_total), ROW_SIZE, col.amount.w), true],
    ];
    const cellsHeight = Math.max(...cells.map(([, lines]) => height(lines)));
    const rowHeight = Math.max(height(nameLines), cellsHeight) + 6;
    const keep = last ? totalsHeight : 0;
    const body = A4[1] - 2 * MARGIN - footerHeight - 80;
    if (rowHeight + keep <= body) {
      ensure(rowHeight + keep);
      drawLines(nameLines, col.name.x, y);
      for (const [key, lines, right] of cells) {
        drawLines(lines, col[key].x, y, right ? col[key].w : undefined);
      }
      y -= rowHeight - 2;
    } else {
      // A row taller than a page: its figures on its first page, its text going on over the
      // next pages under the repeated column heads; its last line stays with the totals.
      ensure(Math.max(cellsHeight, step(nameLines[0]?.size ?? 10)));
      for (const [key, lines, right] of cells) {
        drawLines(lines, col[key].x, y, right ? col[key].w : undefined);
      }
      const first = y;
      nameLines.forEach((line, i) => {
        const h = step(line.size);
        ensure(h + (i === nameLines.length - 1 ? keep : 0));
        draw(line, col.name.x, y);
        y -= h;
      });
      if (y === first) y -= cellsHeight;
      y -= 4;
    }
    rule();
    y -= 4;
  });
  inTable = false;
  if (q.items.length === 0) ensure(totalsHeight);

  y -= 8;
  for (const row of totalRows) {
    drawLines(row.label, TOTAL_LABEL_X, y);
    y -= Math.max(drawLines(row.value, col.amount.x, y, col.amount.w), height(row.label));
  }

  /** A titled block of text across the page; the heading never alone at a page's foot. */
  const section = (heading: string, lines: Line[]) => {
    if (lines.length === 0) return;
    y -= 10;
    const head = wrap(heading, 8.5, WIDTH, true);
    ensure(height(head) + step(lines[0]!.size));
    y -= drawLines(head, MARGIN, y);
    flow(lines, MARGIN);
  };
  section(
    q.exchange_rates.length > 1 ? "Exchange rates" : "Exchange rate",
    q.exchange_rates.flatMap((rate) => wrap(displayRateLine(rate), 9, WIDTH)),
  );
  section("Payment terms", wrap(seller.payment_terms, 9, WIDTH));
  section(
    doc.kind === "proforma" ? "Bank details for payment" : "Bank details",
    wrap(seller.bank_details, 9, WIDTH),
  );
  section(
    "Packing",
    (trade.packing ?? []).flatMap((line) => wrap(line, 9, WIDTH)),
  );
  section("Notes", wrap(q.notes, 9, WIDTH));

  // Signatures: the seller's, and on a quotation the buyer's acceptance.
  const boxes =
    doc.kind === "proforma"
      ? ["Authorised signature (seller)"]
      : ["For the seller", "Accepted by the buyer (signature, name, date, stamp)"];
  const boxWidth = (WIDTH - GUTTER) / 2;
  const boxLines = boxes.map((label) => wrap(label, 8, boxWidth, true));
  const signatureHeight = 44 + Math.max(...boxLines.map(height));
  y -= 16;
  ensure(signatureHeight);
  boxLines.forEach((lines, i) => {
    const x = MARGIN + i * (boxWidth + GUTTER);
    page.drawLine({
      start: { x, y: y - 36 },
      end: { x: x + boxWidth, y: y - 36 },
      thickness: 0.6,
      color: GREY,
    });
    drawLines(lines, x, y - 40);
  });

  // Every page: the footer and "Page x of y".
  pages.forEach((each, i) => {
    page = each;
    const footerTop = MARGIN + footerHeight;
    drawLines(footerLines, MARGIN, footerTop);
    drawLines(
      wrap(`Page ${i + 1} of ${pages.length}`, 8, 90, true),
      MARGIN + WIDTH - 90,
      footerTop,
      90,
    );
  });

  // Plain cross-reference objects (no object streams): any PDF reader, and the font's
  // descriptor stays inspectable.
  return pdf.save({ useObjectStreams: false });
}

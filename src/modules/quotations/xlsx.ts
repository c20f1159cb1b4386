import { loadExcel, XLSX_DATE_FORMAT } from "../../lib/spreadsheet";
import { displayRateLine } from "../exchange/display";
import { currencyDigits, toMajor } from "./money";
import { wrapText } from "./text-wrap";
import type { QuotationDocument } from "./view";

/** Points per line of 11 pt Calibri, the sheet's default font, as Excel and LibreOffice space it. */
const LINE_POINTS = 15;

/**
 * The width of a character in column-width units (the width of "0" in the default font): CJK and
 * fullwidth characters take two, capitals a little more than one. An estimate: a reader's fonts
 * differ, so a wrapped cell's height is rounded up by a line rather than cut.
 */
const cellAdvance = (char: string) =>
  /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/.test(
    char,
  )
    ? 2
    : /[A-Z@MW%]/.test(char)
      ? 1.25
      : 1;

/** Lines a wrapped cell of `width` column units takes for `text`. */
function cellLines(text: string, width: number): number {
  if (!text) return 1;
  return wrapText(text, cellAdvance, Math.max(width - 1.5, 1)).length;
}

/**
 * The height (points) of a row whose wrapped cells are `cells` ([text, column width]): the
 * tallest cell's lines, plus one line of slack when it wraps at all (no reader clips then).
 * Without it exceljs writes no height and LibreOffice shows one line of a wrapped cell.
 */
function wrappedRowHeight(cells: [string, number][]): number {
  const lines = Math.max(1, ...cells.map(([text, width]) => cellLines(text, width)));
  return (lines > 1 ? lines + 0.5 : 1) * LINE_POINTS;
}

/** A calendar day (`YYYY-MM-DD` or an ISO instant) as a date cell value: midnight UTC. */
const dayCell = (value: string | null): Date | string =>
  value ? new Date(`${value.slice(0, 10)}T00:00:00.000Z`) : "";

/**
 * A sheet a buyer can receive as it is: parties, terms, the items table and the totals. Dates
 * are date cells, quantities and amounts number cells, text is string cells as typed (no CSV
 * guard apostrophe: a string cell is never a formula),
 * and the rows above the items table stay in view (frozen) while the items scroll.
 */
export async function renderQuotationXlsx(doc: QuotationDocument) {
  const { quotation: q, parties: p } = doc;
  const seller = doc.seller ?? {};
  const buyer = doc.buyer ?? {};
  const trade = doc.trade ?? {};
  const proforma = doc.kind === "proforma" ? doc.proforma : undefined;
  const quoteNo =
    doc.revision && !q.quote_no.endsWith(`-R${doc.revision}`)
      ? `${q.quote_no}-R${doc.revision}`
      : q.quote_no;
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = p.seller_company ?? p.seller_name ?? "Trade assistant";
  const sheet = workbook.addWorksheet(proforma ? "Proforma invoice" : "Quotation", {
    pageSetup: { paperSize: 9, orientation: "portrait", fitToPage: true, fitToWidth: 1 },
  });
  const digits = currencyDigits(q.currency);
  const moneyFormat = digits > 0 ? `#,##0.${"0".repeat(digits)}` : "#,##0";
  sheet.columns = [
    // Also the labels of the header block ("Customer contact").
    { key: "no", width: 18 },
    { key: "name", width: 36 },
    { key: "description", width: 36 },
    { key: "unit", width: 8 },
    { key: "quantity", width: 12 },
    { key: "unit_price", width: 16 },
    { key: "line_total", width: 18 },
  ];

  const title = sheet.addRow([proforma ? "PROFORMA INVOICE" : "QUOTATION"]);
  title.font = { bold: true, size: 16 };
  sheet.addRow([]);
  const money = (minor: number) => toMajor(minor, q.currency);
  const rows: [string, string | Date][] = [
    ...(proforma
      ? ([
          ["Proforma invoice no.", proforma.proforma_no],
          ["Issue date", dayCell(proforma.issue_date)],
        ] as [string, string | Date][])
      : []),
    ["Quotation no.", quoteNo],
    ["Date", dayCell(q.created_at)],
    ["Valid until", dayCell(q.valid_until)],
    ["Validity", seller.validity_days ? `${seller.validity_days} days` : ""],
    ["Currency", q.currency],
    ["Incoterm", [trade.incoterm || q.incoterm, trade.named_place].filter(Boolean).join(" ")],
    ["Port of loading", trade.port_of_loading ?? ""],
    ["Lead time", trade.lead_time ?? ""],
    ["Seller", seller.legal_name || [p.seller_company, p.seller_name].filter(Boolean).join(" / ")],
    ["Seller address", seller.address ?? ""],
    [
      "Seller contact",
      [seller.phone || p.seller_phone, seller.email || p.seller_email, seller.website]
        .filter(Boolean)
        .join(" / "),
    ],
    [
      "Customer",
      [buyer.company || p.customer_company, buyer.contact || p.customer_contact]
        .filter(Boolean)
        .join(" / "),
    ],
    ["Customer address", buyer.address ?? ""],
    [
      "Customer contact",
      [p.customer_email, buyer.country || p.customer_country].filter(Boolean).join(" / "),
    ],
    ["Payment terms", seller.payment_terms ?? ""],
    // The rates the prices were converted at, as frozen with the quotation: 6 significant
    // digits for the reader, with the day and source they were published under.
    ...q.exchange_rates.map((r, i): [string, string] => [
      i === 0 ? "Exchange rate" : "",
      displayRateLine(r),
    ]),
  ];
  // Rows without a value are left out, except the terms every quotation has a line for.
  const info = rows.filter(
    ([label, value]) => value !== "" || label === "Valid until" || label === "Incoterm",
  );
  // Values wrap inside column B (no merged cells: a reader of the sheet finds each value in
  // one cell), the row as tall as the wrapped value.
  const infoWidth = 36;
  for (const [label, value] of info) {
    const row = sheet.addRow([label, value]);
    row.getCell(1).font = { bold: true };
    if (value instanceof Date) {
      row.getCell(2).numFmt = XLSX_DATE_FORMAT;
      row.getCell(2).alignment = { horizontal: "left" };
    } else if (typeof value === "string") {
      row.getCell(2).alignment = { wrapText: true, vertical: "top" };
      row.height = wrappedRowHeight([[value, infoWidth]]);
    }
  }
  sheet.addRow([]);

  const header = sheet.addRow([
    "No.",
    "Product",
    "Description",
    "Unit",
    "Quantity",
    `Unit price (${q.currency})`,
    `Amount (${q.currency})`,
  ]);
  header.font = { bold: true };
  // The items table's header stays in view while a long list of items scrolls.
  sheet.views = [{ state: "frozen", xSplit: 0, ySplit: header.number }];
  header.eachCell((cell) => {
    cell.fill = { type: "pattern", pattern: "solid", fgColor: { argb: "FFE8EEF7" } };
    cell.border = { bottom: { style: "thin" } };
  });
  for (const item of q.items) {
    const row = sheet.addRow([
      item.position,
      item.name,
      item.description ?? "",
      item.unit,
      item.quantity,
      toMajor(item.unit_price, q.currency),
      toMajor(item.line_total, q.currency),
    ]);
    row.getCell(5).numFmt = "#,##0.###";
    row.getCell(6).numFmt = moneyFormat;
    row.getCell(7).numFmt = moneyFormat;
    row.getCell(2).alignment = { wrapText: true, vertical: "top" };
    row.getCell(3).alignment = { wrapText: true, vertical: "top" };
    row.height = wrappedRowHeight([
      [item.name, 36],
      [item.description ?? "", 36],
      [item.unit, 8],
    ]);
  }
  sheet.addRow([]);
  const totals: [string, number][] = [
    ["Subtotal", q.subtotal],
    ["Discount", -q.discount],
    ["Shipping", q.shipping],
    ["Total", q.total],
    ...(proforma
      ? ([
          [
            `Deposit${proforma.deposit_percent != null ? ` (${proforma.deposit_percent}%)` : ""}`,
            proforma.deposit,
          ],
          ["Balance", proforma.balance],
        ] as [string, number][])
      : []),
  ];
  for (const [label, minor] of totals) {
    const row = sheet.addRow(["", "", "", "", "", label, money(minor)]);
    row.getCell(6).font = { bold: true };
    row.getCell(7).numFmt = moneyFormat;
    if (label === "Total") row.font = { bold: true };
  }
  const blocks: [string, string][] = [
    ["Bank details", seller.bank_details ?? ""],
    ["Packing", (trade.packing ?? []).join("\n")],
    ["Notes", q.notes ?? ""],
    ["", seller.footer ?? ""],
  ];
  for (const [label, value] of blocks) {
    if (!value) continue;
    sheet.addRow([]);
    const row = sheet.addRow([label, value]);
    row.getCell(1).font = { bold: true };
    row.getCell(2).alignment = { wrapText: true, vertical: "top" };
    row.height = wrappedRowHeight([[value, 36]]);
  }
  const out = await workbook.xlsx.writeBuffer();
  return new Uint8Array(out as ArrayBuffer);
}

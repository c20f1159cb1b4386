import { loadExcel, XLSX_DATE_FORMAT } from "../../lib/spreadsheet";
import { displayRateLine } from "../exchange/display";
import { currencyDigits, toMajor } from "./money";
import type { QuotationDocument } from "./view";

/** A calendar day (`YYYY-MM-DD` or an ISO instant) as a date cell value: midnight UTC. */
const dayCell = (value: string | null): Date | string =>
  value ? new Date(`${value.slice(0, 10)}T00:00:00.000Z`) : "";

/**
 * A sheet a buyer can receive as it is: parties, terms, the items table and the totals. Dates
 * are date cells, quantities and amounts number cells, text is string cells as typed (no CSV
 * guard apostrophe: a string cell is never a formula),
 * and the rows above the items table stay in view (frozen) while the items scroll.
 */
export async function renderQuotationXlsx({ quotation: q, parties: p }: QuotationDocument) {
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = p.seller_company ?? p.seller_name ?? "Trade assistant";
  const sheet = workbook.addWorksheet("Quotation", {
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

  const title = sheet.addRow(["QUOTATION"]);
  title.font = { bold: true, size: 16 };
  sheet.addRow([]);
  const info: [string, string | Date][] = [
    ["Quotation no.", q.quote_no],
    ["Date", dayCell(q.created_at)],
    ["Valid until", dayCell(q.valid_until)],
    ["Currency", q.currency],
    ["Incoterm", q.incoterm ?? ""],
    ["Seller", [p.seller_company, p.seller_name].filter(Boolean).join(" / ")],
    ["Seller contact", [p.seller_email, p.seller_phone].filter(Boolean).join(" / ")],
    ["Customer", [p.customer_company, p.customer_contact].filter(Boolean).join(" / ")],
    ["Customer contact", [p.customer_email, p.customer_country].filter(Boolean).join(" / ")],
    // The rates the prices were converted at, as frozen with the quotation: 6 significant
    // digits for the reader, with the day and source they were published under.
    ...q.exchange_rates.map((r, i): [string, string] => [
      i === 0 ? "Exchange rate" : "",
      displayRateLine(r),
    ]),
  ];
  for (const [label, value] of info) {
    const row = sheet.addRow([label, value]);
    row.getCell(1).font = { bold: true };
    if (value instanceof Date) {
      row.getCell(2).numFmt = XLSX_DATE_FORMAT;
      row.getCell(2).alignment = { horizontal: "left" };
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
  }
  sheet.addRow([]);
  const totals: [string, number][] = [
    ["Subtotal", q.subtotal],
    ["Discount", -q.discount],
    ["Shipping", q.shipping],
    ["Total", q.total],
  ];
  for (const [label, minor] of totals) {
    const row = sheet.addRow(["", "", "", "", "", label, toMajor(minor, q.currency)]);
    row.getCell(6).font = { bold: true };
    row.getCell(7).numFmt = moneyFormat;
    if (label === "Total") row.font = { bold: true };
  }
  if (q.notes) {
    sheet.addRow([]);
    const row = sheet.addRow(["Notes", q.notes]);
    row.getCell(1).font = { bold: true };
    row.getCell(2).alignment = { wrapText: true };
  }
  const out = await workbook.xlsx.writeBuffer();
  return new Uint8Array(out as ArrayBuffer);
}

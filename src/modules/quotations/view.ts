import type { INCOTERMS } from "../../db/schema";
import { iso } from "../../lib/clock";
import type { QuotationItemRow, QuotationParties, QuotationRow } from "./queries";
import type { FrozenRate } from "./schemas";

// The quotation as answered and as its documents (PDF, xlsx) show it: plain functions of the
// stored row, apart from service.ts so the documents port (ports.ts, deps.documents) can name
// its document type without importing the service that imports the ports (ADR 0096).

/** jsonb may arrive parsed or as text depending on the driver; null (never priced) is []. */
export const frozenRates = (value: QuotationRow["exchange_rates"]): FrozenRate[] =>
  (typeof value === "string" ? JSON.parse(value) : value) ?? [];

export const out = <T extends QuotationRow>(r: T) => ({
  ...r,
  exchange_rates: frozenRates(r.exchange_rates),
  incoterm: r.incoterm as (typeof INCOTERMS)[number] | null,
  valid_until: r.valid_until === null ? null : String(r.valid_until).slice(0, 10),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** One quotation with its items (jsonb, parsed or text depending on the driver). */
export function quotationView(row: QuotationRow & { items: QuotationItemRow[] | string }) {
  const items =
    typeof row.items === "string" ? (JSON.parse(row.items) as QuotationItemRow[]) : row.items;
  return { ...out(row), items };
}

/** What a document (PDF, xlsx) shows: the quotation, its seller and its customer. */
export interface QuotationDocument {
  quotation: ReturnType<typeof quotationView>;
  parties: QuotationParties;
}

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

/**
 * The seller block every document prints: the organisation's document settings
 * (GET/PUT /api/v1/org/document-settings). Every field optional; an absent block falls back to
 * the member's own name, company and contacts (`parties`).
 */
interface DocumentSeller {
  legal_name?: string | null;
  /** Multi-line postal address ("\n" between lines). */
  address?: string | null;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  /** PNG or JPEG: the bytes, or their base64 (with or without a `data:` prefix). */
  logo?: Uint8Array | string | null;
  /** Multi-line: bank, account, SWIFT/BIC, IBAN... as the buyer's bank needs it for the deposit. */
  bank_details?: string | null;
  /** e.g. "30% deposit by T/T, 70% balance against copy of B/L". */
  payment_terms?: string | null;
  /** The offer holds this many days from its date (printed beside `valid_until`). */
  validity_days?: number | null;
  /** A line or two at the foot of every page. */
  footer?: string | null;
}

/** The buyer block; absent fields fall back to the quotation's customer (`parties`). */
interface DocumentBuyer {
  company?: string | null;
  contact?: string | null;
  /** Multi-line postal address. */
  address?: string | null;
  country?: string | null;
}

/** Delivery terms printed under the parties, each only when set. */
interface DocumentTrade {
  /** Overrides the quotation's own incoterm when given. */
  incoterm?: string | null;
  /** The Incoterm's named place ("FOB Ningbo", "DAP Hamburg"). */
  named_place?: string | null;
  port_of_loading?: string | null;
  /** e.g. "25 days after deposit". */
  lead_time?: string | null;
  /** Packing lines, one a line ("20 pcs per carton", "Carton 60x40x30 cm, 18 kg"). */
  packing?: string[] | null;
}

/** A proforma invoice's own fields; its lines and totals are the quotation's. */
interface ProformaDetails {
  /** Its own number series. */
  proforma_no: string;
  /** YYYY-MM-DD. */
  issue_date: string;
  /** Deposit and balance in the quotation's currency, minor units; deposit + balance = total. */
  deposit: number;
  balance: number;
  /** The deposit's share of the total in percent (0-100), as the payment terms give it. */
  deposit_percent?: number | null;
}

/** What a document (PDF, xlsx) shows: the quotation, its seller and its customer. */
export interface QuotationDocument {
  quotation: ReturnType<typeof quotationView>;
  parties: QuotationParties;
  /** "quotation" (default) or "proforma" (then `proforma` is required). */
  kind?: "quotation" | "proforma";
  seller?: DocumentSeller | null;
  buyer?: DocumentBuyer | null;
  trade?: DocumentTrade | null;
  proforma?: ProformaDetails | null;
  /** Revision number (0 or absent: the original); printed as the number's suffix "-R2". */
  revision?: number | null;
}

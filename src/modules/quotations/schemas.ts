import { z } from "@hono/zod-openapi";
import { INCOTERMS, QUOTATION_STATUSES } from "../../db/schema";
import { calendarDay, clearableText } from "../../http/schemas";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { currencyCode, minorUnits } from "../products/schemas";

/**
 * Bounds sized for real quotations, which also bound the time and memory one document takes
 * (ADR 0083): an export seller's longest quotes run to a few dozen lines, rarely past a hundred.
 */
export const QUOTATION_ITEMS_MAX = 200;
const ITEM_DESCRIPTION_MAX = 5000;
/**
 * The names and descriptions of all items together, counted after product defaults are applied
 * (service.ts): about 50 A4 pages, made in a second or two.
 */
export const QUOTATION_ITEM_TEXT_MAX = 100_000;

const ItemInput = z
  .object({
    product_id: z.uuid({ error: "Not a valid id" }).nullable().optional(),
    name: z.string().trim().min(1).max(300).optional().openapi({
      description: "Required unless product_id is given (then the product's name is the default)",
    }),
    quantity: z.number().int().min(1).max(100_000_000),
    unit_price: minorUnits.optional().openapi({
      description:
        "Minor units of the quotation's currency; defaults to the product's price, converted at the stored exchange rate when the product is priced in another currency",
    }),
    unit: z.string().trim().min(1).max(20).optional(),
    // As long as a product's description (products/schemas.ts), which an item defaults to.
    description: z.string().trim().max(ITEM_DESCRIPTION_MAX).nullable().optional(),
  })
  .strict()
  .refine((i) => i.name !== undefined || i.product_id, {
    error: "Give a name or a product_id",
    path: ["name"],
  })
  .refine((i) => i.unit_price !== undefined || i.product_id, {
    error: "Give a unit_price or a product_id",
    path: ["unit_price"],
  })
  .openapi("QuotationItemInput");
export type ItemInputT = z.infer<typeof ItemInput>;

const dateOnly = z.iso.date({ error: "A date, YYYY-MM-DD" });

/** A document field the quotation prints (docs/quotations.md): trimmed, "" clears it. */
const printed = clearableText;
/** What a document prints beside the terms: the buyer's address and the delivery lines. */
const tradeInput = {
  buyer_address: printed(1000, 'The buyer\'s postal address, lines separated by "\\n"'),
  named_place: printed(200, 'The Incoterm\'s named place ("Ningbo" of "FOB Ningbo")'),
  port_of_loading: printed(200, "Port of loading"),
  lead_time: printed(200, 'e.g. "25 days after deposit"'),
  packing: printed(2000, 'Packing lines, separated by "\\n" ("20 pcs per carton")'),
};
const items = z
  .array(ItemInput)
  .min(1)
  .max(QUOTATION_ITEMS_MAX, { error: `At most ${QUOTATION_ITEMS_MAX} items in one quotation` })
  .openapi({
    description: `1 to ${QUOTATION_ITEMS_MAX} items; their names and descriptions (a product's, where an item takes it) together at most ${QUOTATION_ITEM_TEXT_MAX.toLocaleString("en-US")} characters`,
  });

export const QuotationBody = z
  .object({
    customer_id: z.uuid({ error: "Not a valid id" }).nullable().optional(),
    currency: currencyCode,
    incoterm: z.enum(INCOTERMS).nullable().optional(),
    valid_until: dateOnly.nullable().optional(),
    discount: minorUnits.default(0),
    shipping: minorUnits.default(0),
    notes: z.string().trim().max(5000).nullable().optional(),
    buyer_address: tradeInput.buyer_address.optional(),
    named_place: tradeInput.named_place.optional(),
    port_of_loading: tradeInput.port_of_loading.optional(),
    lead_time: tradeInput.lead_time.optional(),
    packing: tradeInput.packing.optional(),
    items,
  })
  .strict()
  .openapi("QuotationInput");
export type QuotationInput = z.infer<typeof QuotationBody>;

export const QuotationPatch = z
  .object({
    customer_id: z.uuid({ error: "Not a valid id" }).nullable(),
    currency: currencyCode,
    incoterm: z.enum(INCOTERMS).nullable(),
    valid_until: dateOnly.nullable(),
    discount: minorUnits,
    shipping: minorUnits,
    notes: z.string().trim().max(5000).nullable(),
    ...tradeInput,
    status: z.enum(QUOTATION_STATUSES),
    items: items.openapi({ description: "Replaces every item; totals are recomputed" }),
    reprice: z.boolean().openapi({
      description:
        "With items: convert products priced in another currency at today's rates instead of the rates frozen in exchange_rates",
    }),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { error: "Send at least one field" })
  .refine((b) => b.currency === undefined || b.items !== undefined, {
    error: "Changing the currency needs the items priced in it",
    path: ["items"],
  })
  .refine((b) => b.reprice === undefined || b.items !== undefined, {
    error: "reprice needs the items to price",
    path: ["items"],
  })
  .openapi("QuotationPatch");
export type QuotationPatchInput = z.infer<typeof QuotationPatch>;

const ItemSchema = z
  .object({
    id: z.string(),
    product_id: z.string().nullable(),
    position: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    unit: z.string(),
    quantity: z.number().int(),
    unit_price: z.number().int(),
    line_total: z.number().int(),
  })
  .openapi("QuotationItem");

const ExchangeRateSchema = z
  .object({
    from: z.string().openapi({ example: "USD" }),
    to: z.string().openapi({ example: "CNY" }),
    rate: z.string().openapi({ description: "1 `from` = `rate` `to`", example: "7.15146535196" }),
    date: z.string().openapi({ example: "2024-01-04" }),
    source: z.string().openapi({ example: "ECB" }),
  })
  .openapi("QuotationExchangeRate");
export type FrozenRate = z.infer<typeof ExchangeRateSchema>;
const QuotedRateSchema = ExchangeRateSchema.extend({
  age_days: z.number().int().nonnegative().openapi({
    example: 1,
    description: "Whole days from the rate's date to today (UTC)",
  }),
}).openapi("QuotationQuotedRate");
const QuotationWarningSchema = z
  .object({
    code: z.enum(["stale_exchange_rate"]),
    detail: z.string().openapi({
      example:
        "The USD/CNY rate (ECB, 2024-01-04) is 9 days old: reprice or check it before sending",
    }),
  })
  .openapi("QuotationWarning");

const quotationFields = {
  id: z.string(),
  quote_no: z.string(),
  customer_id: z.string().nullable(),
  status: z.enum(QUOTATION_STATUSES),
  currency: z.string(),
  incoterm: z.enum(INCOTERMS).nullable(),
  valid_until: calendarDay().nullable(),
  subtotal: z.number().int().openapi({ description: "Minor units: the sum of line totals" }),
  discount: z.number().int(),
  shipping: z.number().int(),
  total: z.number().int().openapi({ description: "Minor units: subtotal - discount + shipping" }),
  notes: z.string().nullable(),
  exchange_rates: z.array(QuotedRateSchema).openapi({
    description:
      "Rates used to convert products priced in another currency, one per pair, frozen when the items were priced",
  }),
  warnings: z.array(QuotationWarningSchema).openapi({
    description:
      "What the seller should check before sending: `stale_exchange_rate` for each rate older than 7 days",
  }),
  created_at: z.string(),
  updated_at: z.string(),
  org_id: z.string().openapi({ description: "The organisation the quotation belongs to" }),
  user_id: z
    .string()
    .openapi({ description: "The member who made it (the seller on its documents)" }),
  owner_name: z.string().nullable().openapi({ description: "That member's name" }),
  revision: z.number().int().openapi({
    description: "0 for the original; each revision keeps quote_no and counts up (`-R1`, `-R2`)",
  }),
  previous_id: z
    .string()
    .nullable()
    .openapi({ description: "The quotation this revision replaced (now `superseded`)" }),
  buyer_address: z.string().nullable(),
  named_place: z.string().nullable(),
  port_of_loading: z.string().nullable(),
  lead_time: z.string().nullable(),
  packing: z.string().nullable(),
  proforma_no: z.string().nullable().openapi({
    description:
      "The proforma invoice's number (the organisation's `PI-YYYY-NNNN` series), issued on its first export",
  }),
  proforma_date: calendarDay()
    .nullable()
    .openapi({ description: "The proforma invoice's issue date (UTC)" }),
};

export const QuotationSchema = z
  .object({ ...quotationFields, items: z.array(ItemSchema) })
  .openapi("Quotation");
const QuotationSummarySchema = z
  .object({ ...quotationFields, item_count: z.number().int() })
  .openapi("QuotationSummary");

export const QuotationsQuery = pageQuery().extend({
  status: z.enum(QUOTATION_STATUSES).optional(),
  customer_id: z.uuid({ error: "Not a valid id" }).optional(),
});
export const QuotationsPage = pageSchema(QuotationSummarySchema).openapi("QuotationsPage");

export const ExportQuery = z.object({
  format: z.enum(["pdf", "xlsx"]).default("pdf"),
  document: z.enum(["quotation", "proforma"]).default("quotation").openapi({
    description:
      "`proforma`: the proforma invoice of an accepted quotation (409 `quotation_not_accepted` otherwise), numbered on its first export and the same on every later one",
  }),
});

/** GET /quotations/{id}/export: the PDF or .xlsx bytes. */
export const BinaryDocument = z.string().openapi({ format: "binary" });

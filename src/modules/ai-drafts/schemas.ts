import { z } from "@hono/zod-openapi";
import { ClaimSchema } from "../ai/claim-schema";
import { quoteIdField } from "../credits/quote-field";
import { languageTag } from "../marketing/schemas";
import { currencyCode } from "../products/schemas";
import { QuotationSchema } from "../quotations/schemas";

const DRAFT_CHANNELS = ["email", "whatsapp", "wechat"] as const;
export type DraftChannel = (typeof DRAFT_CHANNELS)[number];

export const FollowupDraftBody = z
  .object({
    language: languageTag.optional().openapi({ description: "Default en" }),
    channel: z.enum(DRAFT_CHANNELS).optional().openapi({ description: "Default email" }),
    goal: z.string().trim().min(1).max(500).optional().openapi({
      example: "Ask whether the samples arrived and propose a call next week",
    }),
    quote_id: quoteIdField,
  })
  .strict()
  .openapi("FollowupDraftInput");
export type FollowupDraftInput = z.infer<typeof FollowupDraftBody>;

export const FollowupDraftSchema = z
  .object({
    customer_id: z.string(),
    channel: z.enum(DRAFT_CHANNELS),
    language: z.string(),
    subject: z.string().optional().openapi({ description: "E-mail drafts only" }),
    body: z.string(),
    claims: z.array(ClaimSchema).openapi({
      description:
        "Every price, MOQ, lead time and spec value the draft states, checked against the catalogue",
    }),
    flagged: z.boolean().openapi({
      description:
        "A claim is still unverified after the draft was written again once: check it before sending",
    }),
    provider: z.string(),
    credits_charged: z.number().int(),
    balance: z.number().int(),
  })
  .openapi("FollowupDraft");

/** What the model is asked to answer for a follow-up: `{"subject"?, "body"}`. */
export const FollowupAnswer = z.object({
  subject: z.string().trim().max(300).nullish(),
  body: z.string().trim().min(1).max(10_000),
});

export const FromInquiryBody = z
  .object({
    inquiry_text: z.string().trim().min(1).max(10_000).openapi({
      example:
        "Hello, we need 500 pcs LED panel light 600x600 40W and 200 pcs of SKU DL-12, CIF Hamburg. Target price 8 USD per panel.",
    }),
    customer_id: z.uuid({ error: "Not a valid id" }).nullable().optional(),
    currency: currencyCode.optional().openapi({
      description:
        "The quotation's currency; default: the one the inquiry names, else the first matched product's, else USD",
    }),
    quote_id: quoteIdField,
  })
  .strict()
  .openapi("QuotationFromInquiryInput");
export type FromInquiryInput = z.infer<typeof FromInquiryBody>;

/** A quantity the buyer stated; null or absent when they did not (listed in missing_fields). */
const quantity = z.coerce
  .number()
  .finite()
  .transform((n) => Math.min(100_000_000, Math.max(1, Math.round(n))));
/** A list of short texts; a model's lone string is taken as a list of one. */
const textList = z
  .union([z.array(z.unknown()), z.string()])
  .nullish()
  .transform((v) =>
    (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v])
      .filter((x): x is string => typeof x === "string")
      .map((x) => x.trim().slice(0, 100))
      .filter((x) => x !== "")
      .slice(0, 30),
  );
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .nullish()
    .transform((s) => (s ? s.slice(0, max) : undefined));

/**
 * What the model is asked to extract from an inquiry. Lenient where a model's slip is harmless
 * (a quantity given as "500" or 499.6, an over-long note), strict where the figures matter.
 */
export const InquiryExtraction = z.object({
  items: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(300),
        sku: optionalText(100),
        quantity: quantity.nullish(),
        unit: optionalText(40),
        target_unit_price: z.coerce.number().finite().min(0).max(20_000_000).nullish(),
      }),
    )
    .max(100),
  currency: optionalText(10),
  /** As the buyer wrote it ("free on board", "C&F"): the code normalises it (lib/incoterms.ts). */
  incoterm: optionalText(100),
  port_of_loading: optionalText(200),
  port_of_destination: optionalText(200),
  destination_country: optionalText(100),
  certifications: textList,
  deadline: optionalText(100),
  payment_terms: optionalText(300),
  language: optionalText(20),
  /** The model's own message to the buyer: used only for a language without a template. */
  questions: optionalText(3000),
  notes: optionalText(5000),
});
export type InquiryExtractionT = z.infer<typeof InquiryExtraction>;

const ExtractionSchema = z
  .object({
    items: z.array(
      z.object({
        name: z.string(),
        quantity: z.number().int(),
        matched_product_id: z.string().nullable(),
        similarity: z.number().nullable().openapi({
          description: "1 for an exact SKU match, else pg_trgm similarity of the names",
        }),
      }),
    ),
    notes: z.string().nullable(),
  })
  .openapi("InquiryExtraction");

const InquiryPortSchema = z
  .object({
    raw: z.string().openapi({ description: "As the buyer wrote it" }),
    locode: z.string().nullable().openapi({ description: "UN/LOCODE; null: not in the table" }),
    name: z.string(),
    country: z.string().nullable().openapi({ description: "ISO 3166-1 alpha-2" }),
  })
  .openapi("InquiryPort");

const ExtractedSchema = z
  .object({
    items: z.array(
      z.object({
        name: z.string(),
        sku: z.string().nullable(),
        quantity: z.number().int().nullable().openapi({ description: "null: not stated" }),
        unit: z.string().nullable().openapi({ description: "Normalised: pcs, sets, kg, ..." }),
        match: z.enum(["exact", "alias", "fuzzy", "none"]),
        confidence: z.number().min(0).max(1),
        product_id: z.string().nullable(),
        product_name: z.string().nullable(),
        unpriced: z.boolean().openapi({
          description: "The line is at 0: price it before the quotation can be sent",
        }),
      }),
    ),
    currency: z.string().nullable(),
    incoterm: z.string().nullable().openapi({ description: "Incoterms 2020 code" }),
    incoterm_raw: z.string().nullable(),
    port_of_loading: InquiryPortSchema.nullable(),
    port_of_destination: InquiryPortSchema.nullable(),
    destination_country: z.string().nullable().openapi({ description: "ISO 3166-1 alpha-2" }),
    certifications: z.array(z.string()),
    deadline: z.string().nullable().openapi({ description: "ISO date, when stated" }),
    payment_terms: z.string().nullable(),
    language: z.string(),
    notes: z
      .array(z.string())
      .openapi({ description: "What normalising changed, e.g. DDU read as DAP" }),
  })
  .openapi("InquiryExtracted");

export const FromInquirySchema = QuotationSchema.extend({
  extraction: ExtractionSchema,
  extracted: ExtractedSchema,
  missing_fields: z.array(z.string()).openapi({
    description: "What the buyer left out: items[i].quantity, incoterm, destination",
  }),
  questions: z.string().nullable().openapi({
    description: "A message to the buyer in the inquiry's language asking for the missing fields",
  }),
  next_move: z.enum(["draft", "ask", "out_of_scope"]),
  credits_charged: z.number().int(),
  balance: z.number().int(),
}).openapi("QuotationFromInquiry");

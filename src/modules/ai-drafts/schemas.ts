import { z } from "@hono/zod-openapi";
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
  })
  .strict()
  .openapi("QuotationFromInquiryInput");
export type FromInquiryInput = z.infer<typeof FromInquiryBody>;

const quantity = z.coerce
  .number()
  .finite()
  .transform((n) => Math.min(100_000_000, Math.max(1, Math.round(n))));
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
        quantity: quantity.default(1),
        unit: optionalText(20),
        target_unit_price: z.coerce.number().finite().min(0).max(20_000_000).nullish(),
      }),
    )
    .max(100),
  currency: optionalText(10),
  incoterm: optionalText(10),
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

export const FromInquirySchema = QuotationSchema.extend({
  extraction: ExtractionSchema,
  credits_charged: z.number().int(),
  balance: z.number().int(),
}).openapi("QuotationFromInquiry");

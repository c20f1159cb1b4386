import { z } from "@hono/zod-openapi";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { quoteIdField } from "../credits/quote-field";

const MARKETING_KINDS = [
  "product_description",
  "email",
  "social_post",
  "whatsapp_message",
  "ad_copy",
] as const;
export type MarketingKind = (typeof MARKETING_KINDS)[number];

const MARKETING_TONES = ["professional", "friendly", "persuasive", "concise"] as const;
export type MarketingTone = (typeof MARKETING_TONES)[number];

/** A BCP-47-style tag: a 2-3 letter language, then up to three subtags (`en`, `pt-BR`, `zh-Hant-TW`). */
export const languageTag = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, {
    error: "A language code such as en, es, pt-BR or zh-Hans",
  })
  .openapi({ example: "en" });

export const GenerateBody = z
  .object({
    kind: z.enum(MARKETING_KINDS),
    product_id: z.uuid({ error: "Not a valid id" }).nullable().optional().openapi({
      description: "A product of the organisation's catalogue; its facts go into the prompt",
    }),
    audience: z.string().trim().min(1).max(200).nullable().optional().openapi({
      example: "Hardware importers in Germany",
    }),
    language: languageTag,
    tone: z.enum(MARKETING_TONES).nullable().optional(),
    quote_id: quoteIdField,
  })
  .strict()
  .openapi("MarketingGenerateInput", {
    example: {
      kind: "email",
      product_id: "0b3f6a8e-2c1d-4b5e-9f00-1a2b3c4d5e6f",
      audience: "Hardware importers in Germany",
      language: "de",
      tone: "professional",
    },
  });
export type GenerateInput = z.infer<typeof GenerateBody>;

const contentFields = {
  id: z.string(),
  kind: z.enum(MARKETING_KINDS),
  product_id: z.string().nullable(),
  audience: z.string().nullable(),
  language: z.string(),
  tone: z.enum(MARKETING_TONES).nullable(),
  content: z.string(),
  provider: z.string().openapi({ description: "The AI provider that wrote it" }),
  created_at: z.string(),
};

const MarketingContentSchema = z.object(contentFields).openapi("MarketingContent");

export const GeneratedSchema = z
  .object({
    ...contentFields,
    credits_charged: z.number().int(),
    balance: z.number().int().openapi({ description: "Credits left after the charge" }),
  })
  .openapi("MarketingGenerated");

export const ContentsQuery = pageQuery().extend({ kind: z.enum(MARKETING_KINDS).optional() });
export const ContentsPage = pageSchema(MarketingContentSchema).openapi("MarketingContentsPage");

export const EventBody = z
  .object({
    event_type: z
      .string()
      .regex(/^[a-z][a-z0-9_.-]{0,49}$/, {
        error: "Lower-case letters, digits, '_', '.', '-'; starts with a letter; at most 50",
      })
      .openapi({ example: "share" }),
    content: z.string().trim().min(1).max(2000).openapi({
      description: "What the event is about: a generated content's id, a URL...",
      example: "https://example.com/listing/123",
    }),
  })
  .strict()
  .openapi("MarketingEventInput");

export const EventSchema = z
  .object({
    id: z.string(),
    event_type: z.string(),
    content: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("MarketingEvent");

const dateOnly = z.iso.date({ error: "A date, YYYY-MM-DD" });

export const StatsQuery = z
  .object({
    from: dateOnly.optional().openapi({ description: "First UTC day; default 29 days before to" }),
    to: dateOnly.optional().openapi({ description: "Last UTC day, included; default today" }),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    error: "from must not be after to",
    path: ["from"],
  });

export const StatsSchema = z
  .object({
    from: z.string().openapi({ example: "2024-05-01" }),
    to: z.string().openapi({ example: "2024-05-30" }),
    total: z.number().int(),
    by_type: z.array(z.object({ event_type: z.string(), count: z.number().int() })),
  })
  .openapi("MarketingStats");

import { z } from "@hono/zod-openapi";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { ClaimSchema } from "../ai/claim-schema";
import { quoteIdField } from "../credits/quote-field";

const MAX_TEXT_CHARS = 5000;

/** Characters as users count them: code points, so an emoji or a CJK character is one. */
export const codePoints = (text: string) => [...text].length;

const LANG_PATTERN = /^([a-z]{2,3})(?:[-_]([a-z]{4}))?(?:[-_]([a-z]{2}|[0-9]{3}))?$/i;

/**
 * A BCP-47-ish language tag (`en`, `en-GB`, `zh`, `zh-Hans`, `pt-BR`, `es-419`), normalised to
 * lower-case language, title-case script and upper-case region; undefined when it is not one.
 */
export function normaliseLang(value: string): string | undefined {
  const match = LANG_PATTERN.exec(value.trim());
  if (!match) return undefined;
  const [, language, script, region] = match;
  const parts = [language!.toLowerCase()];
  if (script) parts.push(script[0]!.toUpperCase() + script.slice(1).toLowerCase());
  if (region) parts.push(region.toUpperCase());
  return parts.join("-");
}

const LangCode = (example: string) =>
  z
    .string()
    .max(20)
    .transform((value, ctx) => {
      const lang = normaliseLang(value);
      if (!lang) {
        ctx.addIssue({
          code: "custom",
          message: "Not a language code (e.g. en, en-GB, zh, pt-BR)",
        });
        return z.NEVER;
      }
      return lang;
    })
    .openapi({ type: "string", example });

export const TranslateBody = z
  .object({
    text: z
      .string()
      .transform((value) => value.trim())
      .refine((value) => value.length > 0, { message: "Text must not be empty" })
      .refine((value) => codePoints(value) <= MAX_TEXT_CHARS, {
        message: `Text must be at most ${MAX_TEXT_CHARS} characters`,
      })
      .openapi({
        type: "string",
        description: `The buyer's message, 1 to ${MAX_TEXT_CHARS} characters after trimming`,
        example: "Bonjour, pouvez-vous m'envoyer le prix pour 500 pièces ?",
      }),
    target_lang: LangCode("zh").openapi({ description: "The seller's language" }),
    source_lang: LangCode("fr")
      .optional()
      .openapi({ description: "The buyer's language; detected when omitted" }),
    with_replies: z
      .boolean()
      .default(false)
      .openapi({ description: "Also suggest 3 replies in the buyer's language" }),
    quote_id: quoteIdField,
  })
  .strict()
  .openapi("TranslateRequest");
export type TranslateInput = z.output<typeof TranslateBody>;

const ReplySchema = z
  .object({
    id: z.string().optional().openapi({
      description:
        "Names the reply for POST /api/v1/ai/replies/{id}/accept (absent on replies stored before it existed)",
    }),
    text: z.string().openapi({ description: "The reply in the buyer's language" }),
    translation: z.string().openapi({ description: "The reply in the seller's language" }),
    claims: z.array(ClaimSchema).optional().openapi({
      description:
        "Every price, MOQ, lead time and spec the reply states, checked against the catalogue",
    }),
    flagged: z.boolean().optional().openapi({
      description:
        "A claim is still unverified after the replies were written again once: check it before sending",
    }),
  })
  .openapi("ReplySuggestion");

const GlossaryTermReport = z
  .object({ source_term: z.string(), target_term: z.string() })
  .openapi("GlossaryTermReport");

const GlossaryReportSchema = z
  .object({
    applied: z.array(GlossaryTermReport).openapi({
      description: "Glossary terms found in the text whose target term is in the translation",
    }),
    mismatches: z.array(GlossaryTermReport).openapi({
      description:
        "Glossary terms found in the text whose target term is not in the translation (an LLM's miss was repaired once first)",
    }),
  })
  .openapi("TranslationGlossaryReport");

const TIERS = ["mt", "llm"] as const;

export const TranslateResultSchema = z
  .object({
    id: z.string(),
    translation: z.string(),
    source_lang: z
      .string()
      .nullable()
      .openapi({ description: "The given or detected source language" }),
    target_lang: z.string(),
    provider: z.string().openapi({ description: "The provider that translated" }),
    tier: z.enum(TIERS).openapi({ description: "mt (machine translation) or llm" }),
    replies: z
      .array(ReplySchema)
      .optional()
      .openapi({ description: "Present when with_replies was true" }),
    replies_error: z
      .literal("unavailable")
      .optional()
      .openapi({ description: "The replies could not be produced; the translation still was" }),
    glossary: GlossaryReportSchema.openapi({
      description:
        "The organisation's glossary terms of this text into target_lang: applied and missed",
    }),
    credits_charged: z.int(),
    balance: z.int().openapi({ description: "The caller's balance after the charge" }),
    created_at: z.string(),
  })
  .openapi("TranslateResult");

export const TranslationSchema = z
  .object({
    id: z.string(),
    source_text: z.string(),
    translation: z.string(),
    source_lang: z.string().nullable(),
    target_lang: z.string(),
    replies: z.array(ReplySchema),
    provider: z.string(),
    tier: z.enum(TIERS),
    chars: z.int(),
    created_at: z.string(),
  })
  .openapi("Translation");

export const TranslationsQuery = pageQuery();
export const TranslationsPage = pageSchema(TranslationSchema).openapi("TranslationsPage");

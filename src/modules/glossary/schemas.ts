import { z } from "@hono/zod-openapi";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { normaliseLang } from "../translate/schemas";

export const TERM_MAX = 200;
export const NOTE_MAX = 1000;

/**
 * A glossary language: any BCP-47-ish tag (`en`, `en-GB`, `zh-Hans`), kept as its primary
 * language subtag (`en`, `zh`): a pair is by language, as DeepL's glossaries are.
 */
export function glossaryLang(value: string): string | undefined {
  return normaliseLang(value)?.split("-")[0];
}

const Lang = (example: string) =>
  z
    .string()
    .max(20)
    .transform((value, ctx) => {
      const lang = glossaryLang(value);
      if (!lang) {
        ctx.addIssue({ code: "custom", message: "Not a language code (e.g. en, zh, es)" });
        return z.NEVER;
      }
      return lang;
    })
    .openapi({ type: "string", example });

const Term = (example: string) =>
  z.string().trim().min(1).max(TERM_MAX).openapi({ type: "string", example });

const Note = z
  .string()
  .trim()
  .max(NOTE_MAX)
  .transform((v) => (v === "" ? null : v))
  .nullable()
  .optional()
  .openapi({ type: "string", description: "Why or where the term is used (not translated)" });

const differ = (v: { source_lang?: string; target_lang?: string }) =>
  v.source_lang === undefined || v.target_lang === undefined || v.source_lang !== v.target_lang;
const differMessage = {
  message: "source_lang and target_lang must differ",
  path: ["target_lang"],
};

export const GlossaryTermBody = z
  .object({
    source_lang: Lang("en").openapi({ description: "The language the term is written in" }),
    target_lang: Lang("es").openapi({ description: "The language it is translated into" }),
    source_term: Term("PowerLite X2"),
    target_term: Term("PowerLite X2"),
    note: Note,
  })
  .strict()
  .refine(differ, differMessage)
  .openapi("GlossaryTermRequest");
export type GlossaryTermInput = z.output<typeof GlossaryTermBody>;

export const GlossaryTermPatch = z
  .object({
    source_lang: Lang("en").optional(),
    target_lang: Lang("es").optional(),
    source_term: Term("PowerLite X2").optional(),
    target_term: Term("PowerLite X2").optional(),
    note: Note,
  })
  .strict()
  .refine(differ, differMessage)
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "Nothing to change",
  })
  .openapi("GlossaryTermPatch");
export type GlossaryTermPatchInput = z.output<typeof GlossaryTermPatch>;

export const GlossaryTermSchema = z
  .object({
    id: z.string(),
    source_lang: z.string(),
    target_lang: z.string(),
    source_term: z.string(),
    target_term: z.string(),
    note: z.string().nullable(),
    created_by: z.string().nullable().openapi({ description: "The user who added the term" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("GlossaryTerm");

export const GlossaryQuery = pageQuery().extend({
  source_lang: Lang("en").optional(),
  target_lang: Lang("es").optional(),
  q: z.string().trim().max(200).optional().openapi({
    description: "Part of either term, case-insensitively",
  }),
});

export const GlossaryPage = pageSchema(GlossaryTermSchema).openapi("GlossaryPage");

export const GlossaryImportQuery = z.object({
  dry_run: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .openapi({ description: "true: validate and count only; nothing is written" }),
});

const RowErrorSchema = z.object({ row: z.number().int(), column: z.string(), message: z.string() });

export const GlossaryImportResultSchema = z
  .object({
    dry_run: z.boolean(),
    rows: z.number().int(),
    valid: z.number().int(),
    invalid: z.number().int(),
    duplicates: z.number().int().openapi({
      description: "Valid rows repeating an earlier row's pair and source term (the last wins)",
    }),
    created: z.number().int(),
    updated: z.number().int().openapi({
      description: "Existing terms whose target (and note) the file replaced",
    }),
    ignored_columns: z.array(z.string()),
    errors: z.array(RowErrorSchema),
    errors_truncated: z.boolean(),
  })
  .openapi("GlossaryImportResult");

import { z } from "@hono/zod-openapi";
import { ORG_FAQ_STATUSES } from "../../db/schema";
import { pageQuery, pageSchema } from "../../lib/pagination";

const FaqStatusSchema = z.enum(ORG_FAQ_STATUSES).openapi({
  description: "candidate: an accepted reply waiting for an admin; active: answers questions",
});

/** A language code as the FAQ stores it: lower case, e.g. en, es, pt-br. */
const language = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, { error: "A language code such as en, es or pt-br" })
  .openapi({ example: "en" });

export const OrgFaqSchema = z
  .object({
    id: z.string(),
    question: z.string(),
    answer: z.string(),
    language: z.string().openapi({ description: "und when not known (an accepted reply)" }),
    status: FaqStatusSchema,
    hit_count: z
      .number()
      .int()
      .openapi({ description: "Questions the assistant answered with it" }),
    last_hit_at: z.string().nullable(),
    source_reply_id: z.string().nullable().openapi({
      description: "The accepted reply suggestion it came from (POST /ai/replies/{id}/accept)",
    }),
    created_by: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("OrgFaq");

export const OrgFaqQuery = pageQuery().extend({
  status: z.enum(ORG_FAQ_STATUSES).optional().openapi({ description: "Only this status" }),
});
export type OrgFaqQueryInput = z.infer<typeof OrgFaqQuery>;

export const OrgFaqPage = pageSchema(OrgFaqSchema).openapi("OrgFaqPage");

const question = z.string().trim().min(1).max(2000);
const answer = z.string().trim().min(1).max(10_000);

export const OrgFaqBody = z
  .object({
    question,
    answer,
    language,
    status: z.enum(ORG_FAQ_STATUSES).default("active").openapi({ description: "Default active" }),
  })
  .strict()
  .openapi("OrgFaqInput");
export type OrgFaqInput = z.infer<typeof OrgFaqBody>;

export const OrgFaqPatch = z
  .object({
    question: question.optional(),
    answer: answer.optional(),
    language: language.optional(),
    status: z.enum(ORG_FAQ_STATUSES).optional().openapi({ description: "active approves it" }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { error: "Send at least one field" })
  .openapi("OrgFaqPatch");
export type OrgFaqPatchInput = z.infer<typeof OrgFaqPatch>;

export const AcceptedReplySchema = z
  .object({
    faq: OrgFaqSchema,
    created: z.boolean().openapi({
      description: "false: this reply had already been accepted; that candidate is returned",
    }),
  })
  .openapi("AcceptedReply");

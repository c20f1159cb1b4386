import { z } from "@hono/zod-openapi";
import { PIPELINE_STATUSES } from "../../db/schema/discovery";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { ClaimSchema } from "../ai/claim-schema";
import { quoteIdField } from "../credits/quote-field";
import { holderFields } from "../discovery/schemas";
import { COMPANY_ROLES } from "../discovery/types";

export const StartAgentBody = z
  .object({
    product: z.string().trim().min(1).max(200).openapi({ example: "LED panel lights" }),
    market: z.string().trim().min(1).max(100).openapi({ example: "Germany" }),
    max_leads: z.number().int().min(1).max(50).default(10).openapi({ example: 10 }),
    max_credits: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .openapi({
        description:
          "The most the run may cost: charged at most this now, and the run stops at the stage " +
          "boundary where the next stage would pass it (status budget_exhausted, its leads kept; " +
          "what its stages did not use is refunded). ADR 0108",
        example: 8,
      }),
    quote_id: quoteIdField,
  })
  .openapi("StartAgentBody");
export type StartAgentInput = z.output<typeof StartAgentBody>;

const creditsCharged = z
  .number()
  .int()
  .openapi({
    description:
      "Credits the run costs now: charged at the start, less what was refunded (unused stages, " +
      "a run with no lead, a failure)",
  });
const maxCredits = z
  .number()
  .int()
  .nullable()
  .openapi({ description: "The run's budget (max_credits); null: none" });

export const AgentStartedSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(PIPELINE_STATUSES).openapi({ example: "queued" }),
    credits_charged: creditsCharged,
    max_credits: maxCredits,
  })
  .openapi("AgentStarted");

/** A path id that must be a UUID: `/agent/pipelines` can never be read as one. */

export const PipelinesQuery = pageQuery();

const SummarySchema = z
  .object({
    leads: z.number().int(),
    drafted: z.number().int(),
    saved: z.number().int(),
    duplicates: z.number().int(),
    not_saved: z
      .number()
      .int()
      .optional()
      .openapi({ description: "New leads not saved: the plan's customers limit was reached" }),
    note: z.string().optional().openapi({
      description: "Why leads were not saved, or why the run stopped early (budget, no lead)",
    }),
    stopped_before: z.enum(["search", "outreach", "save"]).optional().openapi({
      description: "budget_exhausted: the stage the budget did not cover",
    }),
  })
  .nullable()
  .openapi({ example: { leads: 8, drafted: 7, saved: 6, duplicates: 2 } });

const pipelineFields = {
  id: z.uuid(),
  status: z.enum(PIPELINE_STATUSES),
  product: z.string(),
  market: z.string(),
  max_leads: z.number().int(),
  error: z.string().nullable().openapi({ description: "Why the run failed (user-safe)" }),
  attempts: z.number().int(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  credits_charged: creditsCharged,
  max_credits: maxCredits,
  ...holderFields,
};

const PipelineListItem = z
  .object({ ...pipelineFields, summary: SummarySchema })
  .openapi("AgentPipelineListItem");

export const PipelinesPage = pageSchema(PipelineListItem).openapi("AgentPipelinesPage");

const StageSchema = z.object({
  name: z.enum(["search", "analysis", "outreach", "save"]),
  status: z.enum(["running", "succeeded", "failed"]),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

const OutreachSchema = z.object({
  subject: z.string(),
  body: z.string(),
  language: z.string(),
  provider: z.string(),
  // Drafts written before issue #24 have no claims.
  claims: z.array(ClaimSchema).optional().openapi({
    description:
      "Every price, MOQ, lead time and spec value the draft states, checked against the catalogue",
  }),
  flagged: z.boolean().optional().openapi({
    description:
      "A claim is still unverified after the draft was written again once: check it before sending",
  }),
});

const LeadSchema = z.object({
  name: z.string(),
  website: z.string().nullable(),
  country: z.string().nullable(),
  summary: z.string(),
  fit_score: z.number(),
  contact: z.object({ email: z.string().nullable(), phone: z.string().nullable() }),
  // Issue #24: discovery's role and cited sources (runs before it: bare URLs, no role).
  role: z.enum(COMPANY_ROLES).optional(),
  role_reason: z.string().optional(),
  sources: z.array(z.union([z.string(), z.object({ field: z.string(), url: z.string() })])),
  existing_customer_id: z.uuid().nullable().optional(),
  outreach: OutreachSchema.nullable(),
  note: z.string().optional().openapi({ description: "Why a lead has no outreach draft" }),
  customer_id: z.uuid().nullable().optional(),
  duplicate_of: z.uuid().nullable().optional(),
  not_saved: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: "Why this new lead was not saved as a customer (plan limit)" }),
});

export const PipelineSchema = z
  .object({
    ...pipelineFields,
    pipeline_data: z.object({
      stages: z.array(StageSchema),
      leads: z.array(LeadSchema),
      summary: SummarySchema,
    }),
  })
  .openapi("AgentPipeline");

export const AgentCancelledSchema = z
  .object({
    id: z.uuid(),
    status: z.literal("cancelled"),
    credits_refunded: z.number().int().openapi({
      description: "The share of the run's charge for the stages not started (docs/agent.md)",
      example: 7,
    }),
    balance: z.number().int().nullable().openapi({ description: "Credits after the refund" }),
  })
  .openapi("AgentCancelled");

/** What the LLM answers for one lead's outreach e-mail. */
export const OutreachAnswer = z.object({
  subject: z.string().trim().min(1).max(300),
  body: z.string().trim().min(1).max(10_000),
});

/** QStash job payload of `agent-run`. */
export const AgentRunJob = z.object({ pipeline_id: z.uuid() });

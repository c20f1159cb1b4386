import { z } from "@hono/zod-openapi";
import { AI_CALL_OUTCOMES } from "../../db/schema";
import { calendarDate } from "../../http/date-range";
import { pageQuery, pageSchema } from "../../lib/pagination";

const filters = {
  task: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .optional()
    .openapi({ description: "The routed task", example: "followup_draft" }),
  outcome: z.enum(AI_CALL_OUTCOMES).optional(),
  start_date: calendarDate
    .optional()
    .openapi({ description: "First UTC day", example: "2026-11-01" }),
  end_date: calendarDate.optional().openapi({ description: "Last UTC day", example: "2026-11-28" }),
};

export const AiUsageQuery = pageQuery().extend(filters);

export const AdminAiCallQuery = pageQuery().extend({
  ...filters,
  provider: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: "The provider's configured name" }),
});

const AiCallSchema = z
  .object({
    id: z.uuid(),
    task: z.string(),
    provider: z.string(),
    model: z.string(),
    tokens_in: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "As the provider reported them; null when it did not" }),
    tokens_out: z.number().int().nullable(),
    latency_ms: z.number().int(),
    outcome: z.enum(AI_CALL_OUTCOMES).openapi({
      description:
        "`ok` answered, `error` failed, `timeout` ran out of time, `unusable` answered what the feature could not use, `cancelled` a stream its client left",
    }),
    credits: z.number().int().openapi({
      description:
        "What the billed operation cost, on the call that answered it (0 on the others, and once the charge was refunded)",
    }),
    user_id: z.uuid().nullable(),
    created_at: z.string(),
  })
  .openapi("AiCall");

export const AiUsagePage = pageSchema(AiCallSchema).openapi("AiUsagePage");

const AdminAiCallSchema = AiCallSchema.extend({
  org_id: z.uuid().nullable(),
  consumption_id: z
    .uuid()
    .nullable()
    .openapi({ description: "The billed operation's consumption (credit ledger)" }),
}).openapi("AdminAiCall");

export const AdminAiCallPage = pageSchema(AdminAiCallSchema).openapi("AdminAiCallPage");

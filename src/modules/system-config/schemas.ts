import { z } from "zod";
import { AI_TASKS, type AiTask } from "../ai/routing";
import type { SystemConfigKey } from "./defaults";

/** A routing entry: a provider name, optionally with a model (`openai` or `openai:gpt-4o-mini`). */
const AI_ROUTING_ENTRY = /^[a-z0-9][a-z0-9_-]*(:[^\s]{1,100})?$/;

const routingEntries = z
  .array(
    z.string().regex(AI_ROUTING_ENTRY, {
      error: "Use provider or provider:model, e.g. openai:gpt-4o-mini",
    }),
  )
  .max(10)
  .superRefine((entries, ctx) => {
    entries.forEach((entry, index) => {
      if (entries.indexOf(entry) !== index) {
        ctx.addIssue({ code: "custom", path: [index], message: `Duplicate entry ${entry}` });
      }
    });
  });

/**
 * `ai.routing`: known AI tasks only, each an ordered list of distinct entries; a task left out
 * is stored as an empty list (every enabled llm provider). Shared by the generic system-config
 * PUT and PUT /api/v1/admin/ai-routing, which also checks that each provider exists and is llm.
 */
export const AiRoutingSchema = z
  .record(z.string(), routingEntries)
  .superRefine((routing, ctx) => {
    for (const task of Object.keys(routing)) {
      if (!(AI_TASKS as readonly string[]).includes(task)) {
        ctx.addIssue({
          code: "custom",
          path: [task],
          message: `Unknown task ${task}; tasks are ${AI_TASKS.join(", ")}`,
        });
      }
    }
  })
  .transform(
    (routing) =>
      Object.fromEntries(AI_TASKS.map((task) => [task, routing[task] ?? []])) as Record<
        AiTask,
        string[]
      >,
  );
const credits = z.number().int().min(0).max(10_000);

/** The shape each admin-editable key must keep; a PUT that breaks it is a 422. */
export const SYSTEM_CONFIG_SCHEMAS: Record<SystemConfigKey, z.ZodType> = {
  "ai.prompt": z.string().trim().min(1).max(8000),
  "ai.quick_questions": z.array(z.string().trim().min(1).max(200)).max(50),
  "ai.routing": AiRoutingSchema,
  "credits.costs": z
    .object({
      translate: credits,
      marketing: credits,
      chat: credits,
      discovery: credits,
      followup_draft: credits,
      quotation_from_inquiry: credits,
      agent_run: credits,
    })
    .strict(),
  "search.providers_order": z.array(z.string().min(1).max(60)).max(20),
  "customers.silence_days": z.number().int().min(1).max(365),
  "referral.reward_days": z.number().int().min(0).max(365),
  "referral.monthly_cap": z.number().int().min(0).max(1000),
  "trial.days": z.number().int().min(0).max(90),
  "plans.yearly_discount": z.number().min(0).max(0.9),
};

import { z } from "zod";
import type { SystemConfigKey } from "./defaults";

const providerModel = z.string().regex(/^[a-z0-9][a-z0-9_.-]*:[^\s]+$/i, {
  error: "Use provider:model, e.g. openai:gpt-4o-mini",
});
const credits = z.number().int().min(0).max(10_000);

/** The shape each admin-editable key must keep; a PUT that breaks it is a 422. */
export const SYSTEM_CONFIG_SCHEMAS: Record<SystemConfigKey, z.ZodType> = {
  "ai.prompt": z.string().trim().min(1).max(8000),
  "ai.quick_questions": z.array(z.string().trim().min(1).max(200)).max(50),
  "ai.routing": z.record(z.string().min(1).max(60), z.array(providerModel).max(10)),
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
  "trial.days": z.number().int().min(0).max(90),
  "plans.yearly_discount": z.number().min(0).max(0.9),
};

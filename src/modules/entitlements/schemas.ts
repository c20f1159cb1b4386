import { z } from "@hono/zod-openapi";

const LimitUsageSchema = z
  .object({
    max: z.number().int().nullable().openapi({ description: "null = unlimited" }),
    used: z.number().int(),
  })
  .openapi("PlanLimitUsage");

export const PlanLimitsSchema = z
  .object({
    customers: LimitUsageSchema.openapi({ description: "Customers kept at once" }),
    agent_runs_per_month: LimitUsageSchema.openapi({
      description: "Agent runs started this calendar month (UTC)",
    }),
    seats: LimitUsageSchema.openapi({
      description: "Members of the organisation (the trial gives its tier's seats)",
    }),
  })
  .openapi("PlanLimits");
export type PlanLimitsUsage = z.infer<typeof PlanLimitsSchema>;

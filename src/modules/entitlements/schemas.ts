import { z } from "@hono/zod-openapi";

/** Feature codes a plan's `features` may hold (src/modules/credits/catalog.ts seeds them). */
export const FEATURES = [
  "translate",
  "customers",
  "products",
  "quotations",
  "marketing",
  "discovery",
  "ai_assistant",
  "followup_engine",
  "agent",
  "priority_support",
] as const;
export type Feature = (typeof FEATURES)[number];

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
  })
  .openapi("PlanLimits");
export type PlanLimitsUsage = z.infer<typeof PlanLimitsSchema>;

/** The 403 of a feature gate or a reached plan limit (docs/credits.md). */
export const PlanDeniedSchema = z
  .object({
    detail: z.string().openapi({
      example: "The agent feature is not in your plan (free). Plans that include it: Business.",
    }),
    feature: z.string().optional().openapi({ description: "The feature the route needs" }),
    limit: z.string().optional().openapi({ description: "The plan limit that was reached" }),
    max: z.number().int().optional(),
    plan: z.string().optional().openapi({ description: "The caller's plan in effect" }),
    plans: z
      .array(z.string())
      .optional()
      .openapi({ description: "Codes of the plans that include the feature or allow more" }),
  })
  .openapi("PlanDenied");

import { z } from "@hono/zod-openapi";
import { LEDGER_KINDS } from "../../db/schema";
import { timestamp } from "../../http/schemas";
import { currencyCode } from "../../lib/currency";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { CREDIT_OPERATIONS } from "./service";

export const BalanceSchema = z
  .object({
    balance: z.number().int(),
    plan: z.string().openapi({ description: "Code of the plan in effect (an ended one is free)" }),
    features: z.array(z.string()).openapi({ description: "Feature codes of that plan" }),
    plan_expires_at: z.string().nullable(),
    trial_ends_at: z.string().nullable(),
    on_trial: z.boolean().openapi({
      description:
        "On the free trial: the same answer as /auth/me is_trial_active and /credits/subscription on_trial",
    }),
    expiring: z
      .array(z.object({ amount: z.number().int(), expires_at: z.string() }))
      .openapi({ description: "Allowance credits that expire, soonest first" }),
    member_used_month: z.number().int().openapi({
      description: "Credits the caller spent of the wallet this UTC calendar month (less refunds)",
    }),
    member_limit: z.number().int().nullable().openapi({
      description: "The caller's monthly credit limit in the organisation; null: none",
    }),
  })
  .openapi("CreditBalance", {
    description: "The wallet of the caller's organisation, which every member spends",
  });

const LedgerEntrySchema = z
  .object({
    id: z.string(),
    org_id: z.string().openapi({ description: "The organisation whose wallet changed" }),
    user_id: z.string().openapi({ description: "The member who spent, bought or moved it" }),
    delta: z.number().int(),
    balance_after: z.number().int(),
    kind: z.enum(LEDGER_KINDS),
    source_type: z.string(),
    source_id: z.string().nullable(),
    operation: z.string().nullable(),
    actor_id: z.string().nullable(),
    note: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("LedgerEntry");

export const LedgerQuery = pageQuery().extend({
  user_id: z.uuid().optional().openapi({
    description: "Only this member's rows (manager+; a member may name only themself)",
  }),
  kind: z.enum(LEDGER_KINDS).optional(),
  operation: z.string().max(40).optional(),
});
export const LedgerPage = pageSchema(LedgerEntrySchema).openapi("LedgerPage");

const PackageSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    credits: z.number().int(),
    price: z.number().int().openapi({ description: "Minor units" }),
    currency: z.string(),
  })
  .openapi("CreditPackage");

export const PackageList = z.object({ items: z.array(PackageSchema) });
const PlanSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    currency: z.string(),
    monthly_price: z.number().int(),
    yearly_price: z.number().int(),
    monthly_credits: z.number().int(),
    features: z.array(z.string()),
    tier: z.number().int(),
  })
  .openapi("SubscriptionPlan");

export const PlanList = z.object({ items: z.array(PlanSchema) });
export const AdjustBody = z
  .object({
    delta: z
      .number()
      .int()
      .min(-1_000_000)
      .max(1_000_000)
      .refine((n) => n !== 0, { error: "delta must not be 0" }),
    reason: z.string().trim().min(3).max(500),
  })
  .openapi("CreditAdjustment");

export const CreditUsersQuery = pageQuery().extend({
  q: z.string().trim().max(100).optional(),
});
const CreditUserSchema = z
  .object({
    org_id: z.string().openapi({ description: "The organisation whose wallet this is" }),
    org_name: z.string(),
    user_id: z
      .string()
      .nullable()
      .openapi({ description: "The owner: adjusting by this id adjusts this wallet" }),
    email: z.string().nullable().openapi({ description: "The owner's" }),
    name: z.string().nullable().openapi({ description: "The owner's" }),
    plan: z.string(),
    balance: z.number().int(),
    updated_at: z.string(),
  })
  .openapi("CreditUser", { description: "An organisation's wallet (ADR 0098)" });
export const CreditUsersPage = pageSchema(CreditUserSchema).openapi("CreditUsersPage");

export const ConsumptionsQuery = pageQuery().extend({
  user_id: z.uuid().optional(),
  operation: z.string().max(40).optional(),
  status: z.enum(["charged", "refunded"]).optional(),
});
const ConsumptionSchema = z
  .object({
    id: z.string(),
    org_id: z.string().openapi({ description: "The organisation charged" }),
    user_id: z.string().openapi({ description: "The member charged" }),
    email: z.string().nullable(),
    operation: z.string(),
    cost: z.number().int(),
    status: z.enum(["charged", "refunded"]),
    created_at: z.string(),
    refunded_at: z.string().nullable(),
  })
  .openapi("CreditConsumption");
export const ConsumptionsPage = pageSchema(ConsumptionSchema).openapi("CreditConsumptionsPage");

const currency = currencyCode;
const sortOrder = z.number().int().min(0).max(10_000);

/** A PATCH takes these without defaults: a field left out is left as it is. */
const packageFields = {
  name: z.string().trim().min(1).max(80),
  credits: z.number().int().min(1).max(10_000_000),
  price: z.number().int().min(0).max(100_000_000),
  currency,
  active: z.boolean(),
  sort_order: sortOrder,
};
export const PackageBody = z
  .object({
    ...packageFields,
    currency: currency.default("CNY"),
    active: packageFields.active.default(true),
    sort_order: sortOrder.default(0),
  })
  .strict()
  .openapi("CreditPackageInput");
export const PackagePatch = z
  .object(packageFields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { error: "Send at least one field" })
  .openapi("CreditPackagePatch");
export const AdminPackageSchema = PackageSchema.extend({
  active: z.boolean(),
  sort_order: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
}).openapi("AdminCreditPackage");

export const AdminPackageList = z.object({ items: z.array(AdminPackageSchema) });
/** Without defaults, as for packages; the code is permanent, so a PATCH has no `code`. */
const planFields = {
  name: z.string().trim().min(1).max(80),
  currency,
  monthly_price: z.number().int().min(0).max(100_000_000),
  monthly_credits: z.number().int().min(0).max(10_000_000),
  features: z.array(z.string().min(1).max(60)).max(50),
  tier: z.number().int().min(0).max(100),
  active: z.boolean(),
  sort_order: sortOrder,
  limits: z
    .object({
      customers: z.number().int().min(0).max(100_000_000).nullable(),
      agent_runs_per_month: z.number().int().min(0).max(1_000_000).nullable(),
      seats: z.number().int().min(1).max(100_000).nullable(),
    })
    .partial()
    .strict()
    .openapi({ description: "Quotas of the plan; null or missing: unlimited" }),
};
export const PlanBody = z
  .object({
    code: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{1,30}$/, { error: "lower-case letters, digits, - and _" }),
    ...planFields,
    currency: currency.default("CNY"),
    features: planFields.features.default([]),
    limits: planFields.limits.default({}),
    active: planFields.active.default(true),
    sort_order: sortOrder.default(0),
  })
  .strict()
  .openapi("SubscriptionPlanInput");
export const PlanPatch = z
  .object(planFields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { error: "Send at least one field" })
  .openapi("SubscriptionPlanPatch");
export const AdminPlanSchema = PlanSchema.extend({
  limits: z.record(z.string(), z.number().int()),
  active: z.boolean(),
  sort_order: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
}).openapi("AdminSubscriptionPlan");

export const AdminPlanList = z.object({ items: z.array(AdminPlanSchema) });
export const UserIdParam = z.object({
  user_id: z.uuid({ error: "Not a valid id" }).openapi({ param: { name: "user_id", in: "path" } }),
});
export const AdjustResultSchema = z
  .object({ user_id: z.string(), balance: z.number().int(), ledger_id: z.string().nullable() })
  .openapi("CreditAdjustmentResult");

export const SubscriptionSchema = z
  .object({
    plan: z.string().openapi({ description: "Code of the plan in effect" }),
    plan_name: z.string().nullable(),
    status: z.enum(["free", "trialing", "active", "cancelled", "granted"]).openapi({
      description:
        "active: paid and renewing; cancelled: paid, runs to its end, then free; trialing: the " +
        "free trial; granted: a paid plan without a payment (referral reward, admin); free",
    }),
    billing_cycle: z.enum(["monthly", "yearly"]).nullable(),
    current_period_start: timestamp().nullable(),
    current_period_end: timestamp().nullable(),
    plan_expires_at: z
      .string()
      .nullable()
      .openapi({ description: "When the plan in effect ends (null: free or no end)" }),
    renews_at: z.string().nullable().openapi({
      description: "When the next payment is due; null when cancelled, on free or on the trial",
    }),
    cancel_at_period_end: z.boolean(),
    cancel_requested_at: z.string().nullable(),
    on_trial: z.boolean(),
    trial_ends_at: z.string().nullable(),
  })
  .openapi("Subscription");

export const QuoteBody = z
  .object({
    operation: z.enum(CREDIT_OPERATIONS).openapi({
      description: "The billable operation's cost key (system config credits.costs)",
      example: "translate",
    }),
    input: z.record(z.string(), z.unknown()).openapi({
      description:
        "The body the operation's route would get. Today's price is the operation's configured " +
        "cost whatever the input (ADR 0108)",
      example: { text: "Hello", target_lang: "de" },
    }),
  })
  .openapi("CreditQuoteBody");

export const QuoteSchema = z
  .object({
    quote_id: z.uuid(),
    operation: z.enum(CREDIT_OPERATIONS),
    credits: z.number().int().openapi({ description: "What the route charges with `quote_id`" }),
    balance: z.number().int().openapi({ description: "The organisation's credits now" }),
    sufficient: z.boolean().openapi({
      description: "Whether the caller can spend `credits` now (balance and monthly limit)",
    }),
    expires_at: timestamp().openapi({ description: "The quote holds until then (10 minutes)" }),
  })
  .openapi("CreditQuote");

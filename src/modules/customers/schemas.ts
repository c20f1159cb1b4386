import { z } from "@hono/zod-openapi";
import { CUSTOMER_STATUSES, FOLLOWUP_CHANNELS } from "../../db/schema";
import { ErrorSchema } from "../../http/errors";
import { booleanQuery } from "../../http/query";
import { timestamp } from "../../http/schemas";
import { currencyCode } from "../../lib/currency";
import { pageQuery, pageSchema } from "../../lib/pagination";

/** Largest value of the `integer` column estimated_value. */
const MAX_INT = 2_147_483_647;

const CustomerStatusSchema = z.enum(CUSTOMER_STATUSES).openapi("CustomerStatus");
const HEALTH_LEVELS = ["healthy", "watch", "at_risk", "critical"] as const;
export type HealthLevel = (typeof HEALTH_LEVELS)[number];

export const CustomerSchema = z
  .object({
    id: z.string(),
    org_id: z.string().openapi({ description: "The organisation the customer belongs to" }),
    user_id: z
      .string()
      .nullable()
      .openapi({ description: "The member who holds it; null: the pool" }),
    owner_name: z
      .string()
      .nullable()
      .openapi({ description: "The holder's name; null in the pool (or no name given)" }),
    company: z.string().nullable(),
    contact_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    whatsapp: z.string().nullable(),
    country: z.string().nullable(),
    source: z.string().nullable(),
    tags: z.array(z.string()),
    status: CustomerStatusSchema,
    notes: z.string().nullable(),
    estimated_value: z.number().int().nullable().openapi({ description: "Minor units" }),
    estimated_currency: z.string(),
    last_contact_at: z.string().nullable(),
    next_followup_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Customer");

const text = (max: number) => z.string().trim().max(max).nullable().optional();
const instant = z.iso.datetime({ offset: true, error: "ISO 8601 date-time with offset" });

const customerFields = {
  company: text(200),
  contact_name: text(200),
  email: z.email({ error: "Not a valid email" }).max(254).or(z.literal("")).nullable().optional(),
  phone: text(50),
  whatsapp: text(50),
  country: text(80),
  source: text(80),
  tags: z.array(z.string().trim().min(1).max(40)).max(30).optional(),
  notes: text(10_000),
  estimated_value: z.number().int().min(0).max(MAX_INT).nullable().optional().openapi({
    description: "Minor units of estimated_currency",
  }),
  estimated_currency: currencyCode.optional(),
  next_followup_at: instant.nullable().optional(),
};

const hasIdentity = (b: {
  company?: string | null;
  contact_name?: string | null;
  email?: string | null;
}) => Boolean(b.company?.trim() || b.contact_name?.trim() || b.email?.trim());

export const CustomerBody = z
  .object({ ...customerFields, status: CustomerStatusSchema.optional() })
  .strict()
  .refine(hasIdentity, {
    error: "Give at least a company, a contact name or an email",
    path: ["company"],
  })
  .openapi("CustomerInput");
export type CustomerInput = z.infer<typeof CustomerBody>;

export const CustomerPatch = z
  .object({ ...customerFields, status: CustomerStatusSchema.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { error: "Send at least one field" })
  .openapi("CustomerPatch");
export type CustomerPatchInput = z.infer<typeof CustomerPatch>;

const CUSTOMER_SORTS = [
  "created_at",
  "updated_at",
  "last_contact_at",
  "next_followup_at",
  "estimated_value",
  "company",
] as const;
const sortValues = CUSTOMER_SORTS.flatMap((s) => [s, `-${s}`]) as [string, ...string[]];

export const CustomerListQuery = pageQuery().extend({
  owner: z
    .union([z.enum(["me", "pool"]), z.uuid()])
    .optional()
    .openapi({
      description:
        "me: what the caller holds; pool: the organisation's pool; a member's user_id: what they hold (manager, admin or owner; 403 for a member naming another member). Default: every customer the caller sees",
    }),
  status: CustomerStatusSchema.optional(),
  q: z.string().trim().min(1).max(100).optional().openapi({
    description: "Case-insensitive search in company, contact name and email",
  }),
  sort: z.enum(sortValues).default("-created_at").openapi({
    description: "A field, descending with a leading '-'; default -created_at",
  }),
  country: z.string().trim().min(1).max(80).optional(),
  tag: z.string().trim().min(1).max(40).optional(),
  due: booleanQuery("true: only customers whose next_followup_at has come"),
});
export type CustomerListQueryInput = z.infer<typeof CustomerListQuery>;

export const CustomerPage = pageSchema(CustomerSchema).openapi("CustomerPage");

export const SilentQuery = pageQuery();
const SilentCustomerSchema = CustomerSchema.extend({
  silent_since: timestamp().openapi({
    description: "Last contact, or creation if never contacted",
  }),
  silent_days: z.number().int(),
}).openapi("SilentCustomer");
export const SilentPage = pageSchema(SilentCustomerSchema)
  .extend({ silence_days: z.number().int().openapi({ description: "customers.silence_days" }) })
  .openapi("SilentCustomerPage");

const FollowupSchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    customer_id: z.string(),
    channel: z.enum(FOLLOWUP_CHANNELS),
    note: z.string().nullable(),
    contacted_at: z.string(),
    next_followup_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("Followup");

export const FollowupBody = z
  .object({
    channel: z.enum(FOLLOWUP_CHANNELS),
    note: z.string().trim().max(10_000).nullable().optional(),
    contacted_at: instant.optional().openapi({ description: "Default now; not in the future" }),
    next_followup_at: instant.nullable().optional().openapi({
      description: "Default: contacted_at + the cadence of the customer's status; null clears it",
    }),
  })
  .strict()
  .openapi("FollowupInput");
export type FollowupInput = z.infer<typeof FollowupBody>;

export const FollowupResultSchema = z
  .object({ followup: FollowupSchema, customer: CustomerSchema })
  .openapi("FollowupResult");

export const FollowupPage = pageSchema(FollowupSchema).openapi("FollowupPage");

const HealthFactorSchema = z
  .object({
    name: z.enum(["recency", "punctuality", "status", "value"]),
    weight: z.number().int().openapi({ description: "Points this factor is worth" }),
    value: z.number().openapi({ description: "0..1; the factor adds weight x value points" }),
    note: z.string(),
  })
  .openapi("CustomerHealthFactor");

export const HealthSchema = z
  .object({
    customer_id: z.string(),
    score: z.number().int().min(0).max(100),
    level: z.enum(HEALTH_LEVELS),
    factors: z.array(HealthFactorSchema),
  })
  .openapi("CustomerHealth");

const HealthScoreSchema = z
  .object({
    customer_id: z.string(),
    user_id: z.string().nullable().openapi({ description: "The holder; null: the pool" }),
    owner_name: z.string().nullable(),
    company: z.string().nullable(),
    contact_name: z.string().nullable(),
    status: CustomerStatusSchema,
    score: z.number().int(),
    level: z.enum(HEALTH_LEVELS),
    last_contact_at: z.string().nullable(),
    next_followup_at: z.string().nullable(),
  })
  .openapi("CustomerHealthScore");

export const HealthScoresQuery = pageQuery().extend({
  sort: z.enum(["score", "-score"]).default("score").openapi({
    description: "score (most at risk first, the default) or -score",
  }),
  level: z.enum(HEALTH_LEVELS).optional(),
});
export const HealthScoresPage = pageSchema(HealthScoreSchema).openapi("CustomerHealthScorePage");

export const HealthOverviewSchema = z
  .object({
    total: z.number().int(),
    average: z.number().nullable().openapi({ description: "Mean score, one decimal" }),
    counts: z.object({
      healthy: z.number().int(),
      watch: z.number().int(),
      at_risk: z.number().int(),
      critical: z.number().int(),
    }),
    most_at_risk: z.array(HealthScoreSchema).openapi({
      description: "The 5 lowest scores among customers not lost",
    }),
  })
  .openapi("CustomerHealthOverview");

/** 409 on a status change the pipeline does not allow: where it is and where it may go. */
export const StatusConflictSchema = ErrorSchema.extend({
  status: z.enum(CUSTOMER_STATUSES).openapi({ description: "The current status" }),
  allowed_statuses: z
    .array(z.enum(CUSTOMER_STATUSES))
    .openapi({ description: "Statuses reachable from it" }),
}).openapi("CustomerStatusConflict");

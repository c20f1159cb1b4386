import { z } from "@hono/zod-openapi";
import { ORG_ROLES } from "../../db/schema";
import { calendarDate } from "../../http/date-range";
import { booleanQuery } from "../../http/query";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { UserSchema } from "../auth/schemas";

export const AdminUserSchema = UserSchema.extend({
  last_login_at: z.string().nullable(),
  referred_by: z.string().nullable(),
  org_id: z.uuid().nullable().openapi({ description: "The organisation the account belongs to" }),
  org_name: z.string().nullable(),
  org_role: z.enum(ORG_ROLES).nullable().openapi({ description: "The account's role there" }),
}).openapi("AdminUser");

export const AdminUserListQuery = pageQuery().extend({
  q: z.string().trim().max(100).optional().openapi({ description: "Matches email or name" }),
  role: z.enum(["user", "admin"]).optional(),
  status: z.enum(["active", "disabled"]).optional(),
  plan: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .openapi({ description: "The plan code the list shows (`free`, `pro`, `business`, ...)" }),
  is_guest: booleanQuery(),
});

export const AdminUserPage = pageSchema(AdminUserSchema).openapi("AdminUserPage");

export const AdminUserPatch = z
  .object({
    role: z.enum(["user", "admin"]),
    status: z.enum(["active", "disabled"]),
    plan: z.string().trim().min(1).max(40),
    plan_expires_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { error: "Send at least one field to change" })
  .openapi("AdminUserPatch");

export const UsageLogQuery = pageQuery().extend({
  user_id: z.uuid().optional(),
  event: z.string().max(60).optional(),
  start_date: z.iso.date().optional(),
  end_date: z.iso.date().optional(),
});

const UsageLogSchema = z
  .object({
    id: z.string(),
    user_id: z.string().nullable(),
    email: z.string().nullable(),
    event: z.string(),
    ip: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
  })
  .openapi("UsageLog");
export const UsageLogPage = pageSchema(UsageLogSchema).openapi("UsageLogPage");

export const ConfigEntrySchema = z
  .object({ key: z.string(), value: z.unknown(), updated_at: z.string() })
  .openapi("SystemConfigEntry");
export const ConfigEntryList = z.object({ items: z.array(ConfigEntrySchema) });
export const ConfigKeyParam = z.object({
  key: z
    .string()
    .max(100)
    .openapi({ param: { name: "key", in: "path" }, example: "credits.costs" }),
});
export const ConfigPutBody = z.object({ value: z.unknown() }).openapi("SystemConfigPut");

export const AuditLogQuery = pageQuery().extend({
  actor_id: z.uuid({ error: "Not a valid id" }).optional(),
  action: z
    .string()
    .max(80)
    .optional()
    .openapi({ description: "`<resource>.<verb>`", example: "credit_plan.update" }),
  target_type: z.string().max(40).optional().openapi({ example: "credit_plan" }),
  target_id: z.string().max(200).optional(),
  start_date: calendarDate.optional().openapi({ example: "2026-10-24" }),
  end_date: calendarDate.optional().openapi({ example: "2026-11-22" }),
});

const AuditLogEntrySchema = z
  .object({
    id: z.string(),
    actor_id: z
      .string()
      .nullable()
      .openapi({ description: "Null for an operator's command-line change" }),
    actor_email: z.string().nullable(),
    action: z.string().openapi({ example: "credit_plan.update" }),
    target_type: z.string().openapi({ example: "credit_plan" }),
    target_id: z.string().nullable(),
    changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })).openapi({
      description:
        "The fields the write changed, each with its value before and after; a write-only " +
        'secret shows as "set", "unset" or "replaced", never its value',
      example: { features: { before: ["crm"], after: ["crm", "agent"] } },
    }),
    request_id: z
      .string()
      .nullable()
      .openapi({
        description:
          "Our id of the request that made the write (its response's X-Request-Id, the access " +
          "log's request_id); `cli` or `startup` for a change made outside a request",
      }),
    client_request_id: z
      .string()
      .nullable()
      .openapi({
        description:
          "The X-Request-Id the caller sent, when it was well formed (at most 128 letters, " +
          "digits and `_ - . : =`); the caller's claim, kept for correlation only",
      }),
    ip: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("AdminAuditLogEntry");
export const AuditLogPage = pageSchema(AuditLogEntrySchema).openapi("AdminAuditLogPage");

export const AdminStatsQuery = z.object({
  start_date: calendarDate.optional().openapi({ example: "2026-10-24" }),
  end_date: calendarDate.optional().openapi({ example: "2026-11-22" }),
});

const perCurrency = z.record(z.string(), z.number().int()).openapi({ example: { USD: 129900 } });
export const AdminStatsSchema = z
  .object({
    start_date: z.string(),
    end_date: z.string(),
    totals: z.object({
      users: z.number().int(),
      guests: z.number().int(),
      paid_plan_users: z.number().int(),
      new_users: z.number().int(),
      revenue: perCurrency,
      credits_granted: z.number().int(),
      credits_consumed: z.number().int(),
      credits_expired: z.number().int(),
      credits_outstanding: z.number().int(),
      ai_calls: z.number().int(),
      ai_calls_by_operation: z.record(z.string(), z.number().int()),
    }),
    by_day: z.array(
      z.object({
        date: z.string(),
        new_users: z.number().int(),
        revenue: perCurrency,
        credits_granted: z.number().int(),
        credits_consumed: z.number().int(),
        ai_calls: z.number().int(),
      }),
    ),
    ai_providers: z
      .array(
        z.object({
          provider: z.string(),
          calls: z.number().int(),
          failures: z.number().int(),
          failure_rate: z.number().openapi({ description: "failures / calls, 0 to 1" }),
          tokens_in: z.number().int(),
          tokens_out: z.number().int(),
          credits: z
            .number()
            .int()
            .openapi({ description: "Credits of the operations its calls answered (cost)" }),
          avg_latency_ms: z.number().int(),
        }),
      )
      .openapi({
        description:
          "Every provider attempt of the range (ai_calls) per provider, busiest first: a failure is an error, a timeout or an unusable answer",
      }),
  })
  .openapi("AdminStats");

export const AdminOrgListQuery = pageQuery().extend({
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .openapi({ description: "Matches the organisation's name or its owner's e-mail" }),
  plan: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .openapi({ description: "The plan in effect (`free`, `pro`, `business`, ...)" }),
});

const AdminOrgSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    plan: z.string().openapi({ description: "The plan in effect (a lapsed paid plan is `free`)" }),
    plan_expires_at: z.string().nullable(),
    trial_ends_at: z.string().nullable(),
    seats: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The plan's `limits.seats`; null: unlimited" }),
    member_count: z.number().int(),
    owner_id: z.uuid().nullable(),
    owner_email: z.string().nullable(),
    balance: z.number().int().openapi({ description: "Credits the organisation's wallet holds" }),
    created_at: z.string(),
  })
  .openapi("AdminOrg");
export const AdminOrgPage = pageSchema(AdminOrgSchema).openapi("AdminOrgPage");

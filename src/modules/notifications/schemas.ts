import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../http/query";
import { pageQuery, pageSchema } from "../../lib/pagination";

/** A customer a reminder digest names (ADR 0091). */
const DueCustomerSchema = z
  .object({
    customer_id: z.string(),
    customer_name: z.string(),
    reason: z.enum(["silent", "followup_due"]),
    since: z.string().openapi({
      description: "silent: the last contact (or creation); followup_due: when it was due",
    }),
    overdue_days: z.int().openapi({
      description: "Whole days past customers.silence_days (silent) or past the follow-up",
    }),
  })
  .openapi("ReminderDigestCustomer");

/** `data` of a `reminder_digest` notification: one per user and UTC day (ADR 0091). */
const ReminderDigestDataSchema = z
  .object({
    silent: z.int().openapi({ description: "Customers silent past customers.silence_days" }),
    followups_due: z.int().openapi({ description: "Customers whose follow-up time has come" }),
    most_urgent: z.array(DueCustomerSchema).max(5).openapi({
      description: "The five most overdue of either kind, most overdue first",
    }),
    as_of: z.string().openapi({
      description:
        "The run the counts are from (a later run the same day that finds them changed refreshes them)",
    }),
    day: z.string().openapi({ description: "The UTC day (YYYY-MM-DD) the digest stands for" }),
  })
  .openapi("ReminderDigestData");

const NotificationSchema = z
  .object({
    id: z.string(),
    kind: z.string().openapi({
      description:
        "What it is about: reminder_digest (the reminders of a day, data: ReminderDigestData), " +
        "trial_ended, subscription_ended, payment_succeeded, referral_rewarded, " +
        "certification_approved, pool_recycle_warning and pool_recycled (the customer pool's " +
        "overnight recycle), member_credit_limit (75% and 100% of a member's monthly limit), ...",
      example: "reminder_digest",
    }),
    title: z.string(),
    body: z.string(),
    data: z
      .union([ReminderDigestDataSchema, z.record(z.string(), z.unknown())])
      .nullable()
      .openapi({ description: "Kind-specific details; ReminderDigestData for reminder_digest" }),
    is_read: z.boolean(),
    read_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("Notification");

export const NotificationsQuery = pageQuery().extend({
  is_read: booleanQuery("Only read (true) or unread (false) ones"),
});

export const NotificationsPage = pageSchema(NotificationSchema)
  .extend({ unread: z.int().openapi({ description: "The caller's unread notifications" }) })
  .openapi("NotificationsPage");

export const MarkNotificationsBody = z
  .object({
    ids: z
      .array(z.uuid({ error: "Not a valid id" }))
      .min(1)
      .max(100),
    is_read: z.boolean(),
  })
  .strict()
  .openapi("MarkNotifications");

export const MarkResultSchema = z
  .object({
    updated: z.int().openapi({ description: "Notifications whose state changed" }),
    unread: z.int(),
  })
  .openapi("MarkNotificationsResult");

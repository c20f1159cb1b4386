import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../http/query";
import { pageQuery, pageSchema } from "../../lib/pagination";

const NotificationSchema = z
  .object({
    id: z.string(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    data: z.record(z.string(), z.unknown()).nullable(),
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

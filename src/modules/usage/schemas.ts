import { z } from "@hono/zod-openapi";
import { calendarDate } from "../../http/date-range";

export const UsageStatsQuery = z.object({
  start_date: calendarDate.optional().openapi({ example: "2026-11-01" }),
  end_date: calendarDate.optional().openapi({ example: "2026-11-22" }),
  user_id: z.uuid().optional().openapi({
    description: "Another member of the caller's organisation (manager+); default the caller",
  }),
});

export const UsageStatsSchema = z
  .object({
    start_date: z.string(),
    end_date: z.string(),
    total: z.number().int(),
    by_event: z.record(z.string(), z.number().int()),
    days: z.array(
      z.object({
        date: z.string(),
        total: z.number().int(),
        events: z.record(z.string(), z.number().int()),
      }),
    ),
  })
  .openapi("UsageStats");

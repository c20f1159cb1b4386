import { z } from "@hono/zod-openapi";
import { validationError } from "./errors";

const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;

/** A YYYY-MM-DD calendar date (Date.parse first: toISOString throws on an invalid date). */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Use the YYYY-MM-DD format" })
  .refine(
    (value) => {
      const time = Date.parse(`${value}T00:00:00Z`);
      return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
    },
    { error: "Not a calendar date" },
  );

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A report's UTC day range from optional `start_date` / `end_date`: by default the 30 days up
 * to today; start after end, or more than 366 days, is a 422.
 */
export function reportRange(query: { start_date?: string; end_date?: string }, today: Date) {
  const end = query.end_date ?? day(today);
  const start =
    query.start_date ??
    day(new Date(Date.parse(`${end}T00:00:00Z`) - (DEFAULT_RANGE_DAYS - 1) * DAY_MS));
  const span = (Date.parse(end) - Date.parse(start)) / DAY_MS;
  if (span < 0) {
    throw validationError([
      { loc: ["query", "start_date"], msg: "start_date is after end_date", type: "value_error" },
    ]);
  }
  if (span >= MAX_RANGE_DAYS) {
    throw validationError([
      {
        loc: ["query", "end_date"],
        msg: `Range is limited to ${MAX_RANGE_DAYS} days`,
        type: "value_error",
      },
    ]);
  }
  return { start, end };
}

import { z } from "@hono/zod-openapi";

/**
 * Response fields the server writes itself, with the format clients generate types and
 * validators from. For a field the naming conventions do not cover (http/openapi-document.ts
 * formats `*_at`, `date`, `*_date`, `id`, `email` by name): a timestamp called `silent_since`,
 * a day called `valid_until`. Inputs keep their validating schemas (z.iso.datetime, z.uuid).
 */
export const timestamp = () =>
  z.string().openapi({ format: "date-time", example: "2026-11-24T08:30:00.000Z" });
export const calendarDay = () => z.string().openapi({ format: "date", example: "2026-11-24" });

/**
 * An optional text input a document prints (document settings, a quotation's trade fields):
 * trimmed, at most `max` characters, and "" or null clears it (stored as null).
 */
export const clearableText = (max: number, description: string) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((value) => (value === "" ? null : value))
    .openapi({ description });

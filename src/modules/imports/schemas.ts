import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../http/errors";

export const ImportQuery = z.object({
  dry_run: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .openapi({ description: "true: validate and preview only; nothing is written" }),
  errors_file: z.enum(["xlsx", "csv"]).optional().openapi({
    description:
      "With dry_run=true: return the uploaded sheet with an `error` column instead of JSON",
  }),
});

export const ImportBody = z.object({
  file: z
    .custom<File>((v) => typeof v === "object" && v !== null && "arrayBuffer" in v, {
      message: "A file is required",
    })
    .openapi({ type: "string", format: "binary", description: ".xlsx or .csv, at most 10 MB" }),
});

const RowErrorSchema = z.object({ row: z.number().int(), column: z.string(), message: z.string() });

export const ImportResultSchema = z
  .object({
    dry_run: z.boolean(),
    rows: z.number().int(),
    valid: z.number().int(),
    invalid: z.number().int(),
    duplicates: z
      .number()
      .int()
      .openapi({ description: "Valid rows matching an existing row or an earlier row" }),
    skipped: z.number().int().openapi({
      description:
        "Customer rows matching a pool customer the caller (a member) may not change: left unchanged, previewed with action `skip`; claim the customer first",
    }),
    created: z.number().int().openapi({
      description: "Rows this request inserted: 0 on a dry run and on a refused import",
    }),
    updated: z.number().int().openapi({
      description: "Rows this request updated: 0 on a dry run and on a refused import",
    }),
    would_create: z.number().int().openapi({
      description: "Rows the file creates when committed (equal to `created` once committed)",
    }),
    would_update: z.number().int().openapi({
      description: "Existing rows the file updates when committed",
    }),
    ignored_columns: z.array(z.string()),
    preview: z.array(z.record(z.string(), z.unknown())),
    errors: z.array(RowErrorSchema),
    errors_truncated: z.boolean(),
  })
  .openapi("ImportResult");

/**
 * 422 of a sheet that cannot be imported: a header row without the required column, an
 * unreadable file (`reason`), or a commit with invalid rows (the dry run's summary and errors).
 */
export const ImportRejectedSchema = ErrorSchema.extend({
  ...ImportResultSchema.omit({ preview: true }).partial().shape,
  errors: z.array(RowErrorSchema),
  reason: z.string().optional().openapi({ description: "Why the file could not be read" }),
}).openapi("ImportRejected");

export const ExportQuery = z.object({
  format: z
    .enum(["xlsx", "csv"])
    .default("xlsx")
    .openapi({
      param: { name: "format", in: "query" },
      description: "xlsx: number and date cells, frozen header; csv: UTF-8 with BOM, CRLF",
    }),
});

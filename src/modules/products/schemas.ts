import { z } from "@hono/zod-openapi";
import { currencyCode } from "../../lib/currency";
import { pageQuery, pageSchema } from "../../lib/pagination";

export { currencyCode } from "../../lib/currency";

/** Minor units (cents, fen): an integer, never a float. */
export const minorUnits = z.number().int().min(0).max(2_000_000_000);

const optionalText = (max: number) => z.string().trim().min(1).max(max).nullable().optional();

export const ProductBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    sku: optionalText(80),
    description: z.string().trim().max(5000).nullable().optional(),
    category: optionalText(100),
    unit: z.string().trim().min(1).max(20).default("pcs"),
    price: minorUnits.nullable().optional().openapi({ description: "Minor units of currency" }),
    currency: currencyCode.default("USD"),
    moq: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
    lead_time_days: z.number().int().min(0).max(3650).nullable().optional().openapi({
      description: "Days from order to shipment the seller quotes",
    }),
    aliases: z
      .array(z.string().trim().min(1).max(200))
      .max(50)
      .transform((list) => [...new Set(list)])
      .nullable()
      .optional()
      .openapi({
        description:
          "Other names buyers use for the product (any language): an inquiry line naming one matches it",
      }),
    hs_code: z
      .string()
      .regex(/^[0-9][0-9.]{3,13}$/, { error: "HS code: digits and dots, e.g. 8517.62" })
      .nullable()
      .optional(),
    image_url: z.string().max(2000).nullable().optional(),
    specs: z
      .record(z.string().min(1).max(100), z.string().max(1000))
      .refine((s) => Object.keys(s).length <= 100, { error: "At most 100 specs" })
      .nullable()
      .optional(),
  })
  .strict()
  .openapi("ProductInput");

export const ProductPatch = ProductBody.extend({
  unit: z.string().trim().min(1).max(20).optional(),
  currency: currencyCode.optional(),
})
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { error: "Send at least one field" })
  .openapi("ProductPatch");

export type ProductInput = z.infer<typeof ProductBody>;
export type ProductPatchInput = z.infer<typeof ProductPatch>;

export const ProductSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sku: z.string().nullable(),
    description: z.string().nullable(),
    category: z.string().nullable(),
    unit: z.string(),
    price: z.number().int().nullable(),
    currency: z.string(),
    moq: z.number().int().nullable(),
    lead_time_days: z.number().int().nullable(),
    aliases: z.array(z.string()),
    hs_code: z.string().nullable(),
    image_url: z.string().nullable(),
    specs: z.record(z.string(), z.string()).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Product");

export const PRODUCT_SORTS = [
  "created_at",
  "-created_at",
  "name",
  "-name",
  "price",
  "-price",
  "sku",
  "-sku",
] as const;

export const ProductsQuery = pageQuery().extend({
  q: z.string().trim().min(1).max(100).optional().openapi({ description: "Name or SKU contains" }),
  category: z.string().trim().min(1).max(100).optional(),
  sort: z.enum(PRODUCT_SORTS).default("-created_at"),
});
export const ProductsPage = pageSchema(ProductSchema).openapi("ProductsPage");

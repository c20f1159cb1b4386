import { z } from "@hono/zod-openapi";

/** The one page-size rule of every list (docs/API.md, "Lists"): `size` 1..1000, 20 by default. */
const PAGE_SIZE_MAX = 1000;
const PAGE_SIZE_DEFAULT = 20;

/** `page` from 1, `size` 1..1000 (else 422), the same on every list. */
export function pageQuery() {
  return z.object({
    page: z.coerce
      .number()
      .int()
      .min(1)
      .default(1)
      .openapi({ example: 1, description: "Page number, from 1" }),
    size: z.coerce
      .number()
      .int()
      .min(1)
      .max(PAGE_SIZE_MAX)
      .default(PAGE_SIZE_DEFAULT)
      .openapi({
        example: PAGE_SIZE_DEFAULT,
        description: `Items per page: 1 to ${PAGE_SIZE_MAX} (else 422), ${PAGE_SIZE_DEFAULT} by default`,
      }),
  });
}

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
  });
}

export const offsetOf = (page: number, size: number) => (page - 1) * size;

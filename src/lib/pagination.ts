import { z } from "@hono/zod-openapi";

/** `page` from 1, `size` 1..max (ARCHITECTURE.md: 100 by default, customers up to 1000). */
export function pageQuery(maxSize = 100, defaultSize = 20) {
  return z.object({
    page: z.coerce.number().int().min(1).default(1).openapi({ example: 1 }),
    size: z.coerce.number().int().min(1).max(maxSize).default(defaultSize).openapi({ example: 20 }),
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

import { type SQL, sql } from "drizzle-orm";
import { pgErrorCode, queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { Deps } from "../../deps";
import { conflict, notFound, validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import { escapeLike } from "../../lib/sql-text";
import { parsePublicUrl, SsrfBlockedError } from "../../lib/ssrf";
import type { PRODUCT_SORTS, ProductInput, ProductPatchInput } from "./schemas";

export interface ProductRow {
  id: string;
  name: string;
  sku: string | null;
  description: string | null;
  category: string | null;
  unit: string;
  price: number | null;
  currency: string;
  moq: number | null;
  hs_code: string | null;
  image_url: string | null;
  specs: Record<string, string> | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = sql`id, name, sku, description, category, unit, price, currency, moq, hs_code,
  image_url, specs, created_at, updated_at`;

const out = (r: ProductRow) => ({
  ...r,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** Stores only URLs that point at the public web (the image may be fetched later). */
function checkImageUrl(url: string | null | undefined) {
  if (url === null || url === undefined) return url;
  try {
    return parsePublicUrl(url).toString();
  } catch (error) {
    if (!(error instanceof SsrfBlockedError)) throw error;
    throw validationError([
      { loc: ["body", "image_url"], msg: error.message, type: "url_not_allowed" },
    ]);
  }
}

function uniqueSku<T>(promise: Promise<T>, sku: string | null | undefined): Promise<T> {
  return promise.catch((error) => {
    if (pgErrorCode(error) === "23505") throw conflict(`A product with SKU ${sku} exists`);
    throw error;
  });
}

const ORDER: Record<(typeof PRODUCT_SORTS)[number], SQL> = {
  created_at: sql`created_at asc, id asc`,
  "-created_at": sql`created_at desc, id desc`,
  name: sql`lower(name) asc, id`,
  "-name": sql`lower(name) desc, id`,
  price: sql`price asc nulls last, id`,
  "-price": sql`price desc nulls last, id`,
  sku: sql`sku asc nulls last, id`,
  "-sku": sql`sku desc nulls last, id`,
};

export async function listProducts(
  deps: Deps,
  userId: string,
  query: {
    page: number;
    size: number;
    q?: string;
    category?: string;
    sort: (typeof PRODUCT_SORTS)[number];
  },
) {
  const filters: SQL[] = [sql`user_id = ${userId}`];
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    filters.push(sql`(lower(name) like ${pattern} or lower(sku) like ${pattern})`);
  }
  if (query.category) filters.push(sql`category = ${query.category}`);
  const where = sql.join(filters, sql` and `);
  const { rows, total } = await selectPage<ProductRow>(deps.db, {
    columns: COLUMNS,
    from: sql`products`,
    where,
    order: ORDER[query.sort],
    page: query.page,
    size: query.size,
  });
  return { items: rows.map(out), total, page: query.page, size: query.size };
}

export async function getProduct(deps: Deps, userId: string, id: string) {
  const [row] = await queryRows<ProductRow>(
    deps.db,
    sql`select ${COLUMNS} from products where id = ${id} and user_id = ${userId}`,
  );
  if (!row) throw notFound("Product not found");
  return out(row);
}

export async function createProduct(deps: Deps, userId: string, input: ProductInput) {
  const imageUrl = checkImageUrl(input.image_url);
  const [row] = await uniqueSku(
    queryRows<ProductRow>(
      deps.db,
      sql`insert into products (id, user_id, name, sku, description, category, unit, price,
            currency, moq, hs_code, image_url, specs)
          values (${deps.ids.uuid()}, ${userId}, ${input.name}, ${input.sku ?? null},
            ${input.description ?? null}, ${input.category ?? null}, ${input.unit},
            ${input.price ?? null}, ${input.currency}, ${input.moq ?? null},
            ${input.hs_code ?? null}, ${imageUrl ?? null},
            ${input.specs ? JSON.stringify(input.specs) : null}::jsonb)
          returning ${COLUMNS}`,
    ),
    input.sku,
  );
  return out(row!);
}

const PATCH_COLUMNS = [
  "name",
  "sku",
  "description",
  "category",
  "unit",
  "price",
  "currency",
  "moq",
  "hs_code",
] as const;

export async function updateProduct(
  deps: Deps,
  userId: string,
  id: string,
  patch: ProductPatchInput,
) {
  const sets = PATCH_COLUMNS.filter((k) => patch[k] !== undefined).map(
    (k) => sql`${sql.identifier(k)} = ${patch[k]}`,
  );
  if (patch.image_url !== undefined) {
    sets.push(sql`image_url = ${checkImageUrl(patch.image_url) ?? null}`);
  }
  if (patch.specs !== undefined) {
    sets.push(sql`specs = ${patch.specs ? JSON.stringify(patch.specs) : null}::jsonb`);
  }
  const [row] = await uniqueSku(
    queryRows<ProductRow>(
      deps.db,
      sql`update products set ${sql.join([...sets, sql`updated_at = now()`], sql`, `)}
          where id = ${id} and user_id = ${userId} returning ${COLUMNS}`,
    ),
    patch.sku,
  );
  if (!row) throw notFound("Product not found");
  return out(row);
}

/** Quotation items keep their own copy of name and price (product_id becomes null). */
export async function deleteProduct(deps: Deps, userId: string, id: string) {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`delete from products where id = ${id} and user_id = ${userId} returning id`,
  );
  if (rows.length === 0) throw notFound("Product not found");
}

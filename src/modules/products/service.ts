import { conflict, notFound, validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import { pgErrorCode } from "../../lib/db-errors";
import { parsePublicUrl, SsrfBlockedError } from "../../lib/ssrf";
import type { Deps } from "../../ports";
import type { ProductRow } from "./queries";
import * as queries from "./queries";
import type { PRODUCT_SORTS, ProductInput, ProductPatchInput } from "./schemas";

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
  const { rows, total } = await queries.listProducts(deps.db, {
    userId,
    q: query.q,
    category: query.category,
    sort: query.sort,
    page: query.page,
    size: query.size,
  });
  return { items: rows.map(out), total, page: query.page, size: query.size };
}

export async function getProduct(deps: Deps, userId: string, id: string) {
  const row = await queries.getProduct(deps.db, { userId, id });
  if (!row) throw notFound("Product not found");
  return out(row);
}

export async function createProduct(deps: Deps, userId: string, input: ProductInput) {
  const imageUrl = checkImageUrl(input.image_url);
  const row = await uniqueSku(
    queries.insertProduct(deps.db, {
      id: deps.ids.uuid(),
      userId,
      values: {
        name: input.name,
        sku: input.sku ?? null,
        description: input.description ?? null,
        category: input.category ?? null,
        unit: input.unit,
        price: input.price ?? null,
        currency: input.currency,
        moq: input.moq ?? null,
        lead_time_days: input.lead_time_days ?? null,
        aliases: input.aliases ?? [],
        hs_code: input.hs_code ?? null,
        image_url: imageUrl ?? null,
        specs: input.specs ?? null,
      },
    }),
    input.sku,
  );
  if (!row) throw queries.catalogueRefused();
  return out(row);
}

/** A change that touched nothing: 403 for a product the member sees, else 404. */
async function notChanged(deps: Deps, userId: string, id: string): Promise<never> {
  if (await queries.getProduct(deps.db, { userId, id })) throw queries.catalogueRefused();
  throw notFound("Product not found");
}

export async function updateProduct(
  deps: Deps,
  userId: string,
  id: string,
  patch: ProductPatchInput,
) {
  const { image_url, ...rest } = patch;
  const row = await uniqueSku(
    queries.updateProduct(deps.db, {
      userId,
      id,
      patch: {
        ...rest,
        ...(image_url !== undefined ? { image_url: checkImageUrl(image_url) ?? null } : {}),
      },
    }),
    patch.sku,
  );
  if (!row) return notChanged(deps, userId, id);
  return out(row);
}

/** Quotation items keep their own copy of name and price (product_id becomes null). */
export async function deleteProduct(deps: Deps, userId: string, id: string) {
  if (!(await queries.deleteProduct(deps.db, { userId, id }))) await notChanged(deps, userId, id);
}

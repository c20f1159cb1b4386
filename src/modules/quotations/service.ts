import { type SQL, sql } from "drizzle-orm";
import { pgConstraint, pgErrorCode, queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { INCOTERMS, QUOTATION_STATUSES } from "../../db/schema";
import type { Deps } from "../../deps";
import {
  ApiError,
  conflict,
  notFound,
  type ValidationIssue,
  validationError,
} from "../../http/errors";
import { iso } from "../../lib/clock";
import { convert, minorUnit } from "../exchange/service";
import { convertMinor } from "./money";
import type { FrozenRate, ItemInputT, QuotationInput, QuotationPatchInput } from "./schemas";

const INT4_MAX = 2_147_483_647;
type QuotationStatus = (typeof QUOTATION_STATUSES)[number];

/**
 * Status transitions (docs/quotations.md). Content (items, prices, customer, terms) can be
 * edited only while the quotation is a draft: once sent, the figures the buyer saw stay put.
 */
const TRANSITIONS: Record<QuotationStatus, readonly QuotationStatus[]> = {
  draft: ["sent"],
  sent: ["accepted", "rejected", "expired"],
  accepted: [],
  rejected: [],
  expired: [],
};
const allowedFrom = (to: QuotationStatus) =>
  (Object.keys(TRANSITIONS) as QuotationStatus[]).filter((from) => TRANSITIONS[from]?.includes(to));

export interface PricedItem {
  product_id: string | null;
  position: number;
  name: string;
  description: string | null;
  unit: string;
  quantity: number;
  unit_price: number;
  line_total: number;
}

/** line_total = quantity x unit_price; subtotal = sum; total = subtotal - discount + shipping. */
function computeTotals(
  lines: { quantity: number; unit_price: number }[],
  discount: number,
  shipping: number,
) {
  const issues: ValidationIssue[] = [];
  let subtotal = 0n;
  const lineTotals = lines.map((line, index) => {
    const lineTotal = BigInt(line.quantity) * BigInt(line.unit_price);
    if (lineTotal > BigInt(INT4_MAX)) {
      issues.push({
        loc: ["body", "items", index, "quantity"],
        msg: "Line total is too large",
        type: "too_big",
      });
    }
    subtotal += lineTotal;
    return Number(lineTotal);
  });
  const total = subtotal - BigInt(discount) + BigInt(shipping);
  if (subtotal > BigInt(INT4_MAX)) {
    issues.push({ loc: ["body", "items"], msg: "Total is too large", type: "too_big" });
  } else if (total > BigInt(INT4_MAX)) {
    // The items fit; what tips the total over is the shipping added on top.
    issues.push({ loc: ["body", "shipping"], msg: "Total is too large", type: "too_big" });
  }
  if (total < 0n) {
    issues.push({
      loc: ["body", "discount"],
      msg: "Total would be negative: the discount exceeds subtotal plus shipping",
      type: "negative_total",
    });
  }
  if (issues.length > 0) throw validationError(issues, issues[0]!.msg);
  return { lineTotals, subtotal: Number(subtotal), total: Number(total) };
}

interface ProductRef {
  id: string;
  name: string;
  unit: string;
  price: number | null;
  currency: string;
  description: string | null;
}

/**
 * The rate for one pair: the frozen one when the quotation already holds it (and the caller did
 * not ask to reprice), else today's from the exchange module. Null when there is none.
 */
async function rateFor(
  deps: Deps,
  from: string,
  to: string,
  frozen: readonly FrozenRate[],
): Promise<FrozenRate | null> {
  const kept = frozen.find((r) => r.from === from && r.to === to);
  if (kept) return kept;
  try {
    const { rate, date, source } = await convert(deps, { amount: "1", from, to });
    return { from, to, rate, date, source };
  } catch (error) {
    // 422 unknown currency, or 503 no rates loaded at all: either way no rate for this pair.
    if (error instanceof ApiError && (error.status === 422 || error.status === 503)) return null;
    throw error;
  }
}

/**
 * The unit price a product gives an item that names none, in the quotation's currency (at the
 * pair's rate in `rates`), or the issue that prevents it.
 */
function productUnitPrice(
  product: ProductRef,
  currency: string,
  rates: ReadonlyMap<string, FrozenRate | null>,
): number | Omit<ValidationIssue, "loc"> {
  if (product.price === null) {
    return { msg: "The product has no price: give unit_price", type: "missing" };
  }
  if (product.currency === currency) return product.price;
  const rate = rates.get(product.currency);
  if (!rate) {
    return {
      msg: `No exchange rate from ${product.currency} to ${currency} is available: give unit_price or use the product's currency`,
      type: "no_exchange_rate",
    };
  }
  const converted = convertMinor(
    product.price,
    rate.rate,
    minorUnit(product.currency),
    minorUnit(currency),
  );
  if (converted > BigInt(INT4_MAX)) {
    return { msg: "The converted price is too large", type: "too_big" };
  }
  return Number(converted);
}

/**
 * Resolves items against the caller's products; another seller's product is not found. A
 * product priced in another currency is converted at the pair's rate (`frozen` first, then
 * today's), and every rate used is returned, one per pair, to be stored with the quotation.
 */
async function priceItems(
  deps: Deps,
  userId: string,
  currency: string,
  items: ItemInputT[],
  frozen: readonly FrozenRate[] = [],
): Promise<{ items: Omit<PricedItem, "line_total">[]; exchangeRates: FrozenRate[] }> {
  const ids = [...new Set(items.map((i) => i.product_id).filter((id): id is string => !!id))];
  const products = new Map<string, ProductRef>();
  if (ids.length > 0) {
    const rows = await queryRows<ProductRef>(
      deps.db,
      sql`select id, name, unit, price, currency, description from products
          where user_id = ${userId} and id in ${ids}`,
    );
    for (const row of rows) products.set(row.id, row);
  }
  const needsRate = (item: ItemInputT, product: ProductRef | undefined): product is ProductRef =>
    item.unit_price === undefined &&
    product !== undefined &&
    product.price !== null &&
    product.currency !== currency;
  const pairs = [
    ...new Set(
      items.flatMap((item) => {
        const product = item.product_id ? products.get(item.product_id) : undefined;
        return needsRate(item, product) ? [product.currency] : [];
      }),
    ),
  ].sort();
  const rates = new Map<string, FrozenRate | null>();
  for (const from of pairs) rates.set(from, await rateFor(deps, from, currency, frozen));

  const issues: ValidationIssue[] = [];
  const priced = items.map((item, index) => {
    const product = item.product_id ? products.get(item.product_id) : undefined;
    if (item.product_id && !product) {
      issues.push({
        loc: ["body", "items", index, "product_id"],
        msg: "Product not found",
        type: "not_found",
      });
    }
    let unitPrice = item.unit_price;
    if (unitPrice === undefined && product) {
      const price = productUnitPrice(product, currency, rates);
      if (typeof price === "number") unitPrice = price;
      else issues.push({ loc: ["body", "items", index, "unit_price"], ...price });
    }
    return {
      product_id: item.product_id ?? null,
      position: index + 1,
      name: item.name ?? product?.name ?? "",
      description: item.description ?? (item.product_id ? (product?.description ?? null) : null),
      unit: item.unit ?? product?.unit ?? "pcs",
      quantity: item.quantity,
      unit_price: unitPrice ?? 0,
    };
  });
  if (issues.length > 0) throw validationError(issues, issues[0]!.msg);
  const exchangeRates = [...rates.values()].filter((r): r is FrozenRate => r !== null);
  return { items: priced, exchangeRates };
}

async function checkCustomer(deps: Deps, userId: string, customerId: string | null | undefined) {
  if (!customerId) return;
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`select id from customers where id = ${customerId} and user_id = ${userId}`,
  );
  if (rows.length === 0) {
    throw validationError(
      [{ loc: ["body", "customer_id"], msg: "Customer not found", type: "not_found" }],
      "Customer not found",
    );
  }
}

/** The items as one jsonb parameter, inserted by the same statement as their quotation. */
const itemsJson = (items: PricedItem[]) => JSON.stringify(items);
const insertItems = (quotationIdFrom: SQL, items: PricedItem[]) => sql`
  insert into quotation_items (quotation_id, product_id, position, name, description, unit,
    quantity, unit_price, line_total)
  select q.id, (i->>'product_id')::uuid, (i->>'position')::int, i->>'name', i->>'description',
    i->>'unit', (i->>'quantity')::int, (i->>'unit_price')::int, (i->>'line_total')::int
  from ${quotationIdFrom} q, jsonb_array_elements(${itemsJson(items)}::jsonb) as t(i)`;

/** 22003: the row's own amounts plus the patched ones overflow the integer total column. */
const TOTAL_TOO_LARGE = "Total is too large";

function writeErrors(error: unknown, overflowField: "items" | "shipping" = "items"): never {
  const code = pgErrorCode(error);
  if (code === "22003") {
    throw validationError(
      [{ loc: ["body", overflowField], msg: TOTAL_TOO_LARGE, type: "too_big" }],
      TOTAL_TOO_LARGE,
    );
  }
  if (code === "23514" && pgConstraint(error) === "quotations_amounts_non_negative") {
    throw validationError(
      [
        {
          loc: ["body", "discount"],
          msg: "Total would be negative: the discount exceeds subtotal plus shipping",
          type: "negative_total",
        },
      ],
      "Total would be negative",
    );
  }
  // A customer or product deleted between the check and the write.
  if (code === "23503") throw validationError([], "A referenced customer or product is gone");
  throw error;
}

export async function createQuotation(deps: Deps, userId: string, input: QuotationInput) {
  await checkCustomer(deps, userId, input.customer_id);
  const { items: priced, exchangeRates } = await priceItems(
    deps,
    userId,
    input.currency,
    input.items,
  );
  const totals = computeTotals(priced, input.discount, input.shipping);
  const items = priced.map((item, i) => ({ ...item, line_total: totals.lineTotals[i]! }));
  const day = deps.clock.now().toISOString().slice(0, 10).replaceAll("-", "");
  const prefix = `Q-${day}`;
  const id = deps.ids.uuid();
  // Q-YYYYMMDD-NNN, numbered per seller and day inside the insert; two creates racing for the
  // same number collide on the unique (user_id, quote_no) and the loser retries.
  for (let attempt = 0; ; attempt++) {
    try {
      await queryRows(
        deps.db,
        sql`with q as (
              insert into quotations (id, user_id, customer_id, quote_no, currency, incoterm,
                valid_until, subtotal, discount, shipping, total, notes, exchange_rates)
              select ${id}, ${userId}, ${input.customer_id ?? null},
                ${prefix} || '-' || lpad((coalesce(max(substring(quote_no from 12)::int), 0) + 1)::text, 3, '0'),
                ${input.currency}, ${input.incoterm ?? null}, ${input.valid_until ?? null},
                ${totals.subtotal}, ${input.discount}, ${input.shipping}, ${totals.total},
                ${input.notes ?? null}, ${JSON.stringify(exchangeRates)}::jsonb
              from quotations
              where user_id = ${userId} and quote_no ~ ${`^${prefix}-[0-9]+$`}
              returning id
            ), items as (${insertItems(sql`q`, items)} returning 1)
            select id from q`,
      );
      break;
    } catch (error) {
      if (pgErrorCode(error) === "23505" && attempt < 5) continue;
      writeErrors(error);
    }
  }
  return getQuotation(deps, userId, id);
}

interface QuotationRow {
  id: string;
  quote_no: string;
  customer_id: string | null;
  status: QuotationStatus;
  currency: string;
  incoterm: string | null;
  valid_until: string | Date | null;
  subtotal: number;
  discount: number;
  shipping: number;
  total: number;
  notes: string | null;
  exchange_rates: FrozenRate[] | string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = sql`q.id, q.quote_no, q.customer_id, q.status, q.currency, q.incoterm,
  q.valid_until::text as valid_until, q.subtotal, q.discount, q.shipping, q.total, q.notes,
  q.exchange_rates, q.created_at, q.updated_at`;

/** jsonb may arrive parsed or as text depending on the driver; null (never priced) is []. */
const frozenRates = (value: FrozenRate[] | string | null): FrozenRate[] =>
  (typeof value === "string" ? JSON.parse(value) : value) ?? [];

const out = <T extends QuotationRow>(r: T) => ({
  ...r,
  exchange_rates: frozenRates(r.exchange_rates),
  incoterm: r.incoterm as (typeof INCOTERMS)[number] | null,
  valid_until: r.valid_until === null ? null : String(r.valid_until).slice(0, 10),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listQuotations(
  deps: Deps,
  userId: string,
  query: { page: number; size: number; status?: QuotationStatus; customer_id?: string },
) {
  const filters: SQL[] = [sql`q.user_id = ${userId}`];
  if (query.status) filters.push(sql`q.status = ${query.status}`);
  if (query.customer_id) filters.push(sql`q.customer_id = ${query.customer_id}`);
  const where = sql.join(filters, sql` and `);
  const { rows, total } = await selectPage<QuotationRow & { item_count: number }>(deps.db, {
    columns: sql`${COLUMNS},
      (select count(*)::int from quotation_items i where i.quotation_id = q.id) as item_count`,
    from: sql`quotations q`,
    where,
    order: sql`q.created_at desc, q.id desc`,
    page: query.page,
    size: query.size,
  });
  return { items: rows.map(out), total, page: query.page, size: query.size };
}

export async function getQuotation(deps: Deps, userId: string, id: string) {
  const [row] = await queryRows<QuotationRow & { items: PricedItem[] | string }>(
    deps.db,
    sql`select ${COLUMNS},
          coalesce((select jsonb_agg(jsonb_build_object('id', i.id, 'product_id', i.product_id,
              'position', i.position, 'name', i.name, 'description', i.description,
              'unit', i.unit, 'quantity', i.quantity, 'unit_price', i.unit_price,
              'line_total', i.line_total) order by i.position)
            from quotation_items i where i.quotation_id = q.id), '[]'::jsonb) as items
        from quotations q where q.id = ${id} and q.user_id = ${userId}`,
  );
  if (!row) throw notFound("Quotation not found");
  const items = (
    typeof row.items === "string" ? JSON.parse(row.items) : row.items
  ) as (PricedItem & {
    id: string;
  })[];
  return { ...out(row), items };
}

/** The SET clauses of the fields a PATCH names, but for items and the totals they change. */
function patchSets(
  content: Omit<QuotationPatchInput, "status" | "items" | "reprice">,
  status: QuotationPatchInput["status"],
): SQL[] {
  const sets: SQL[] = [sql`updated_at = now()`];
  for (const key of ["customer_id", "incoterm", "valid_until", "notes", "currency"] as const) {
    if (content[key] !== undefined) sets.push(sql`${sql.identifier(key)} = ${content[key]}`);
  }
  if (content.discount !== undefined) sets.push(sql`discount = ${content.discount}`);
  if (content.shipping !== undefined) sets.push(sql`shipping = ${content.shipping}`);
  if (status !== undefined) sets.push(sql`status = ${status}`);
  return sets;
}

export async function updateQuotation(
  deps: Deps,
  userId: string,
  id: string,
  patch: QuotationPatchInput,
) {
  const { status, items: itemInputs, reprice, ...content } = patch;
  const editsContent = Object.keys(content).length > 0 || itemInputs !== undefined;
  if (content.customer_id !== undefined) await checkCustomer(deps, userId, content.customer_id);

  const sets = patchSets(content, status);
  const discount = content.discount === undefined ? sql`discount` : sql`${content.discount}`;
  const shipping = content.shipping === undefined ? sql`shipping` : sql`${content.shipping}`;

  let items: PricedItem[] | undefined;
  if (itemInputs !== undefined) {
    const [stored] = await queryRows<{
      currency: string;
      exchange_rates: QuotationRow["exchange_rates"];
    }>(
      deps.db,
      sql`select currency, exchange_rates from quotations where id = ${id} and user_id = ${userId}`,
    );
    if (!stored) throw notFound("Quotation not found");
    // The rates frozen when the quotation was priced stay, unless the caller asks for today's.
    const frozen = reprice ? [] : frozenRates(stored.exchange_rates);
    const { items: priced, exchangeRates } = await priceItems(
      deps,
      userId,
      content.currency ?? stored.currency,
      itemInputs,
      frozen,
    );
    sets.push(sql`exchange_rates = ${JSON.stringify(exchangeRates)}::jsonb`);
    // Checked here for a clear message when discount/shipping are sent too; the table's check
    // constraint covers the values the statement reads from the row.
    const totals = computeTotals(priced, content.discount ?? 0, content.shipping ?? 0);
    items = priced.map((item, i) => ({ ...item, line_total: totals.lineTotals[i]! }));
    sets.push(sql`subtotal = ${totals.subtotal}`);
    sets.push(sql`total = ${totals.subtotal} - ${discount} + ${shipping}`);
  } else if (content.discount !== undefined || content.shipping !== undefined) {
    sets.push(sql`total = subtotal - ${discount} + ${shipping}`);
  }

  const conditions: SQL[] = [sql`id = ${id}`, sql`user_id = ${userId}`];
  if (editsContent) conditions.push(sql`status = 'draft'`);
  if (status !== undefined) {
    const from = allowedFrom(status);
    conditions.push(from.length > 0 ? sql`status in ${from}` : sql`false`);
  }
  const update = sql`update quotations set ${sql.join(sets, sql`, `)}
    where ${sql.join(conditions, sql` and `)} returning id`;
  const statement = items
    ? sql`with q as (${update}),
            del as (delete from quotation_items where quotation_id in (select id from q)),
            ins as (${insertItems(sql`q`, items)} returning 1)
          select id from q`
    : update;
  // A PATCH of shipping alone adds to the subtotal stored in the row, so only the statement
  // itself can tell that the sum overflows: it fails whole, and that failure is the 422.
  const overflowField = content.shipping !== undefined ? "shipping" : "items";
  const rows = await queryRows<{ id: string }>(deps.db, statement).catch((error: unknown) =>
    writeErrors(error, overflowField),
  );
  if (rows.length === 0) {
    const current = await getQuotation(deps, userId, id); // 404 when not the caller's
    if (status !== undefined && !allowedFrom(status).includes(current.status)) {
      throw conflict(`A ${current.status} quotation cannot become ${status}`);
    }
    throw conflict(`Only a draft quotation can be edited; this one is ${current.status}`);
  }
  return getQuotation(deps, userId, id);
}

export async function deleteQuotation(deps: Deps, userId: string, id: string) {
  // Items go with it (on delete cascade): one statement.
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`delete from quotations where id = ${id} and user_id = ${userId} returning id`,
  );
  if (rows.length === 0) throw notFound("Quotation not found");
}

/** What a document (PDF, xlsx) shows: the quotation, its seller and its customer. */
export async function quotationDocument(deps: Deps, userId: string, id: string) {
  const quotation = await getQuotation(deps, userId, id);
  const [parties] = await queryRows<{
    seller_name: string | null;
    seller_company: string | null;
    seller_email: string | null;
    seller_phone: string | null;
    seller_country: string | null;
    customer_company: string | null;
    customer_contact: string | null;
    customer_email: string | null;
    customer_country: string | null;
  }>(
    deps.db,
    sql`select u.name as seller_name, u.company as seller_company, u.email as seller_email,
          u.phone as seller_phone, u.country as seller_country,
          c.company as customer_company, c.contact_name as customer_contact,
          c.email as customer_email, c.country as customer_country
        from users u left join customers c on c.id = ${quotation.customer_id} and c.user_id = u.id
        where u.id = ${userId}`,
  );
  return { quotation, parties: parties! };
}
export type QuotationDocument = Awaited<ReturnType<typeof quotationDocument>>;

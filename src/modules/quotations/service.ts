import type { QUOTATION_STATUSES } from "../../db/schema";
import {
  ApiError,
  conflict,
  notFound,
  type ValidationIssue,
  validationError,
} from "../../http/errors";
import { pgConstraint, pgErrorCode } from "../../lib/db-errors";
import type { Deps } from "../../ports";
import { withRateAges } from "../exchange/age";
import { convert, minorUnit } from "../exchange/service";
import { getProductRefs, type ProductRef } from "../products/queries";
import { convertMinor } from "./money";
import type { QuotationItemValues } from "./queries";
import * as queries from "./queries";
import {
  type FrozenRate,
  type ItemInputT,
  QUOTATION_ITEM_TEXT_MAX,
  type QuotationInput,
  type QuotationPatchInput,
} from "./schemas";
import { frozenRates, out, type QuotationDocument, quotationView } from "./view";

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

type PricedItem = QuotationItemValues;

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
    const rows = await getProductRefs(deps.db, { userId, ids });
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
  const text = priced.reduce((sum, i) => sum + i.name.length + (i.description?.length ?? 0), 0);
  if (text > QUOTATION_ITEM_TEXT_MAX) {
    issues.push({
      loc: ["body", "items"],
      msg: `The items' names and descriptions come to ${text} characters; a quotation holds at most ${QUOTATION_ITEM_TEXT_MAX} (shorten the descriptions or split the quotation)`,
      type: "too_big",
    });
  }
  if (issues.length > 0) throw validationError(issues, issues[0]!.msg);
  const exchangeRates = [...rates.values()].filter((r): r is FrozenRate => r !== null);
  return { items: priced, exchangeRates };
}

/**
 * Whether the caller may quote the customer: `yes`, `pool` (claim it first) or undefined (not
 * a customer they see). For routes that quote a customer before creating the quotation.
 */
export function quotableCustomer(deps: Deps, userId: string, customerId: string) {
  return queries.quotableCustomer(deps.db, { userId, id: customerId });
}

/**
 * A quotation names a customer the caller may work on: another member's is not found, as
 * another organisation's; one in the pool is claimed first (the pool's rules, docs/teams.md,
 * hold for whoever works a customer).
 */
async function checkCustomer(deps: Deps, userId: string, customerId: string | null | undefined) {
  if (!customerId) return;
  const quotable = await queries.quotableCustomer(deps.db, { userId, id: customerId });
  if (quotable === "yes") return;
  const msg =
    quotable === "pool"
      ? "The customer is in the pool: claim it before quoting it"
      : "Customer not found";
  throw validationError(
    [{ loc: ["body", "customer_id"], msg, type: quotable === "pool" ? "in_pool" : "not_found" }],
    msg,
  );
}

/** 22003: the row's own amounts plus the patched ones overflow the integer total column. */
const TOTAL_TOO_LARGE = "Total is too large";

/** Times a create numbers again after losing the race for a number (createQuotation). */
const NUMBERING_ATTEMPTS = 20;

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
  // same number meet on the unique (user_id, quote_no) and the loser, having inserted nothing,
  // numbers again.
  for (let attempt = 0; ; attempt++) {
    let inserted: boolean;
    try {
      inserted = await queries.insertQuotation(deps.db, {
        id,
        userId,
        prefix,
        customerId: input.customer_id ?? null,
        currency: input.currency,
        incoterm: input.incoterm ?? null,
        validUntil: input.valid_until ?? null,
        subtotal: totals.subtotal,
        discount: input.discount,
        shipping: input.shipping,
        total: totals.total,
        notes: input.notes ?? null,
        exchangeRates,
        items,
      });
    } catch (error) {
      writeErrors(error);
    }
    if (inserted) break;
    // Each lost race means another create of this seller took the number and committed: with
    // n at once the last one numbers n times. Far more than a seller's own concurrent creates.
    if (attempt >= NUMBERING_ATTEMPTS) {
      throw new ApiError(503, "The quotation could not be numbered; please try again");
    }
  }
  return getQuotation(deps, userId, id);
}

export async function listQuotations(
  deps: Deps,
  userId: string,
  query: { page: number; size: number; status?: QuotationStatus; customer_id?: string },
) {
  const { rows, total } = await queries.listQuotations(deps.db, {
    userId,
    status: query.status,
    customerId: query.customer_id,
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((r) => withRateAges(deps, out(r))),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function getQuotation(deps: Deps, userId: string, id: string) {
  const row = await queries.getQuotation(deps.db, { userId, id });
  if (!row) throw notFound("Quotation not found");
  return withRateAges(deps, quotationView(row));
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

  let priced: { items: PricedItem[]; exchangeRates: FrozenRate[]; subtotal: number } | undefined;
  if (itemInputs !== undefined) {
    const stored = await queries.getQuotationPricing(deps.db, { userId, id });
    if (!stored) throw notFound("Quotation not found");
    // The rates frozen when the quotation was priced stay, unless the caller asks for today's.
    const frozen = reprice ? [] : frozenRates(stored.exchange_rates);
    const { items: pricedItems, exchangeRates } = await priceItems(
      deps,
      userId,
      content.currency ?? stored.currency,
      itemInputs,
      frozen,
    );
    // Checked here for a clear message when discount/shipping are sent too; the table's check
    // constraint covers the values the statement reads from the row.
    const totals = computeTotals(pricedItems, content.discount ?? 0, content.shipping ?? 0);
    priced = {
      items: pricedItems.map((item, i) => ({ ...item, line_total: totals.lineTotals[i]! })),
      exchangeRates,
      subtotal: totals.subtotal,
    };
  }

  // A PATCH of shipping alone adds to the subtotal stored in the row, so only the statement
  // itself can tell that the sum overflows: it fails whole, and that failure is the 422.
  const overflowField = content.shipping !== undefined ? "shipping" : "items";
  const rows = await queries
    .updateQuotation(deps.db, {
      userId,
      id,
      fields: content,
      status,
      draftOnly: editsContent,
      allowedFrom: status === undefined ? undefined : allowedFrom(status),
      priced,
    })
    .catch((error: unknown) => writeErrors(error, overflowField));
  if (rows.length === 0) {
    const current = await getQuotation(deps, userId, id); // 404 when the caller does not see it
    if (status !== undefined && !allowedFrom(status).includes(current.status)) {
      throw conflict(`A ${current.status} quotation cannot become ${status}`);
    }
    throw conflict(`Only a draft quotation can be edited; this one is ${current.status}`);
  }
  return getQuotation(deps, userId, id);
}

export async function deleteQuotation(deps: Deps, userId: string, id: string) {
  // Items go with it (on delete cascade): one statement.
  if (!(await queries.deleteQuotation(deps.db, { userId, id }))) {
    throw notFound("Quotation not found");
  }
}

/** What a document (PDF, xlsx) shows: the quotation, its seller and its customer. */
export async function quotationDocument(
  deps: Deps,
  userId: string,
  id: string,
): Promise<QuotationDocument> {
  const quotation = await getQuotation(deps, userId, id);
  const parties = await queries.getQuotationParties(deps.db, {
    sellerId: quotation.user_id,
    orgId: quotation.org_id,
    customerId: quotation.customer_id,
  });
  return { quotation, parties };
}

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
import { documentSettingsOf } from "../orgs/service";
import { getProductRefs, type ProductRef } from "../products/queries";
import { convertMinor } from "./money";
import type { QuotationItemValues, TradeValues } from "./queries";
import * as queries from "./queries";
import {
  type FrozenRate,
  type ItemInputT,
  QUOTATION_ITEM_TEXT_MAX,
  type QuotationInput,
  type QuotationPatchInput,
} from "./schemas";
import { assertPriced } from "./unpriced";
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
  // Only a revision supersedes a quotation (reviseQuotation); never a PATCH.
  superseded: [],
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

/** The document fields of a create (null when not given). */
const tradeValues = (input: QuotationInput): TradeValues => ({
  buyer_address: input.buyer_address ?? null,
  named_place: input.named_place ?? null,
  port_of_loading: input.port_of_loading ?? null,
  lead_time: input.lead_time ?? null,
  packing: input.packing ?? null,
});

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
        trade: tradeValues(input),
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
    // Sent together with new items: those are the lines the buyer gets.
    if (status === "sent") assertPriced(priced.items);
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
    if (editsContent && current.status !== "draft") {
      throw conflict(`Only a draft quotation can be edited; this one is ${current.status}`);
    }
    // The statement refused a line priced 0 (src/modules/quotations/unpriced.ts names them).
    if (status === "sent") assertPriced(current.items);
    throw conflict(`The quotation changed meanwhile (now ${current.status}); try again`);
  }
  return getQuotation(deps, userId, id);
}

export async function deleteQuotation(deps: Deps, userId: string, id: string) {
  // Items go with it (on delete cascade): one statement.
  if (!(await queries.deleteQuotation(deps.db, { userId, id }))) {
    throw notFound("Quotation not found");
  }
}

/**
 * A new draft revision of a sent, accepted, rejected or expired quotation (ADR 0106): the same
 * number with `revision` + 1 and `previous_id`, the same terms and lines; the old one becomes
 * `superseded`. One statement, so two revisions at once leave one. 409 `quotation_not_revisable`
 * for a draft (edit it instead) or a quotation already superseded by a revision.
 */
export async function reviseQuotation(deps: Deps, userId: string, id: string) {
  const newId = deps.ids.uuid();
  if (await queries.reviseQuotation(deps.db, { userId, id, newId })) {
    return getQuotation(deps, userId, newId);
  }
  const current = await getQuotation(deps, userId, id); // 404 when the caller does not see it
  const why =
    current.status === "draft"
      ? "A draft is edited, not revised: change it with PATCH, or send it first"
      : current.status === "superseded"
        ? "This quotation was already revised: revise its latest revision"
        : `A ${current.status} quotation cannot be revised`;
  throw new ApiError(409, why, {
    code: "quotation_not_revisable",
    extra: { status: current.status },
  });
}

/**
 * A fresh draft with a new number, the same customer, terms and lines (prices as they stand,
 * frozen rates kept). The customer must be one the caller may quote (docs/teams.md).
 */
export async function duplicateQuotation(deps: Deps, userId: string, sourceId: string) {
  const source = await getQuotation(deps, userId, sourceId); // 404 when the caller does not see it
  if (source.customer_id) {
    const quotable = await queries.quotableCustomer(deps.db, { userId, id: source.customer_id });
    if (quotable !== "yes") {
      throw conflict(
        quotable === "pool"
          ? "The quotation's customer is in the pool: claim it before quoting it again"
          : "The quotation's customer is held by another member: they quote it",
      );
    }
  }
  const day = deps.clock.now().toISOString().slice(0, 10).replaceAll("-", "");
  const id = deps.ids.uuid();
  for (let attempt = 0; ; attempt++) {
    const inserted = await queries
      .duplicateQuotation(deps.db, { userId, sourceId, id, prefix: `Q-${day}` })
      .catch((error: unknown) => writeErrors(error));
    if (inserted) break;
    // The source vanished (deleted meanwhile): not found; else a number race, numbered again.
    if (attempt >= NUMBERING_ATTEMPTS) {
      throw new ApiError(503, "The quotation could not be numbered; please try again");
    }
    if (!(await queries.getQuotationPricing(deps.db, { userId, id: sourceId }))) {
      throw notFound("Quotation not found");
    }
  }
  return getQuotation(deps, userId, id);
}

/** Times a proforma is numbered again after losing the race for a number. */
const PROFORMA_ATTEMPTS = 20;

/**
 * The proforma invoice number of an accepted quotation, issued on its first export and kept
 * (ADR 0106): the organisation's series `PI-YYYY-NNNN`. An issued one is exported again as it
 * was, whatever became of the quotation since; issuing needs `accepted` (409
 * `quotation_not_accepted`).
 */
async function issueProforma(
  deps: Deps,
  userId: string,
  quotation: { id: string; status: QuotationStatus; proforma_no: string | null },
) {
  if (quotation.proforma_no) return;
  const notAccepted = (status: string) =>
    new ApiError(
      409,
      `A proforma invoice is made of an accepted quotation; this one is ${status} (mark it accepted first)`,
      { code: "quotation_not_accepted", extra: { status } },
    );
  if (quotation.status !== "accepted") throw notAccepted(quotation.status);
  const now = deps.clock.now();
  const prefix = `PI-${now.getUTCFullYear()}`;
  for (let attempt = 0; attempt < PROFORMA_ATTEMPTS; attempt++) {
    try {
      const issued = await queries.issueProformaNumber(deps.db, {
        userId,
        id: quotation.id,
        prefix,
        now: now.toISOString(),
      });
      if (issued) return;
    } catch (error) {
      // Another quotation of the organisation took the number: number again.
      if (pgErrorCode(error) === "23505") continue;
      throw error;
    }
    const current = await getQuotation(deps, userId, quotation.id);
    if (current.proforma_no) return; // issued by a concurrent export
    throw notAccepted(current.status);
  }
  throw new ApiError(503, "The proforma invoice could not be numbered; please try again");
}

/**
 * The deposit's share in basis points from payment terms: the first percentage before
 * "deposit", "advance", "down payment" or "prepayment" (or 定金, 预付, 订金), or after one of
 * them ("deposit of 30%"). Null when the terms name none.
 */
export function depositBasisPoints(terms: string | null | undefined): number | null {
  if (!terms) return null;
  const words = "deposit|advance|down[- ]payment|prepayment|定金|订金|预付";
  const pct = "(\\d{1,3}(?:[.,]\\d{1,2})?)\\s*%";
  const m =
    new RegExp(`${pct}\\s*(?:t/t\\s*)?(?:in\\s+)?(?:${words})`, "i").exec(terms) ??
    new RegExp(`(?:${words})[^%\\d]{0,20}${pct}`, "i").exec(terms);
  if (!m) return null;
  const [whole = "0", fraction = ""] = m[1]!.replace(",", ".").split(".");
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return bp <= 10_000 ? bp : null;
}

/**
 * Deposit and balance of `total` (minor units) at `bp` basis points, exact: the deposit rounded
 * half up to the minor unit, the balance the rest (deposit + balance = total).
 */
export function splitTotal(total: number, bp: number | null) {
  if (bp === null) return { deposit: 0, balance: total, deposit_percent: null };
  const deposit = Number((BigInt(total) * BigInt(bp) + 5000n) / 10000n);
  return { deposit, balance: total - deposit, deposit_percent: bp / 100 };
}

/** What a document (PDF, xlsx) shows: the quotation, its seller and its customer. */
export async function quotationDocument(
  deps: Deps,
  userId: string,
  id: string,
  kind: "quotation" | "proforma" = "quotation",
): Promise<QuotationDocument> {
  let quotation = await getQuotation(deps, userId, id);
  if (kind === "proforma" && !quotation.proforma_no) {
    await issueProforma(deps, userId, quotation);
    quotation = await getQuotation(deps, userId, id);
  }
  const [parties, seller] = await Promise.all([
    queries.getQuotationParties(deps.db, {
      sellerId: quotation.user_id,
      orgId: quotation.org_id,
      customerId: quotation.customer_id,
    }),
    documentSettingsOf(deps, quotation.org_id),
  ]);
  const packing = quotation.packing
    ?.split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return {
    kind,
    quotation,
    parties,
    revision: quotation.revision,
    seller: {
      legal_name: seller.legal_name,
      address: seller.address,
      phone: seller.phone,
      email: seller.email,
      website: seller.website,
      logo: seller.logo,
      bank_details: seller.bank_details,
      payment_terms: seller.payment_terms,
      validity_days: seller.validity_days,
      footer: seller.footer,
    },
    buyer: {
      company: parties.customer_company,
      contact: parties.customer_contact,
      address: quotation.buyer_address,
      country: parties.customer_country,
    },
    trade: {
      incoterm: quotation.incoterm,
      named_place: quotation.named_place,
      port_of_loading: quotation.port_of_loading,
      lead_time: quotation.lead_time,
      packing: packing && packing.length > 0 ? packing : null,
    },
    proforma:
      kind === "proforma" && quotation.proforma_no
        ? {
            proforma_no: quotation.proforma_no,
            issue_date: quotation.proforma_date ?? quotation.created_at.slice(0, 10),
            ...splitTotal(quotation.total, depositBasisPoints(seller.payment_terms)),
          }
        : null,
  };
}

/** The file name of a document: the quote number (with `-R<n>` for a revision), or the proforma's. */
export function documentFileName(doc: QuotationDocument, format: string) {
  const { quotation } = doc;
  const base =
    doc.kind === "proforma" && doc.proforma
      ? doc.proforma.proforma_no
      : quotation.revision > 0
        ? `${quotation.quote_no}-R${quotation.revision}`
        : quotation.quote_no;
  return `${base.replace(/[^A-Za-z0-9._-]/g, "_")}.${format}`;
}

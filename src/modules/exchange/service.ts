import { notFound, unavailable, validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { ratesClientFromEnv, wideRatesClientFromEnv } from "../../providers/rates";
import { RATES_SOURCE_EXCHANGERATE_API } from "../../providers/rates/exchangerate-api";
import {
  RATES_SOURCE_ECB,
  type RatesClient,
  RatesRequestError,
  RatesUnavailableError,
} from "../../providers/rates/frankfurter";
import type { Actor } from "../admin/queries/audit";
import { ageInDays } from "./age";
import * as queries from "./queries";
import { RATES_SNAPSHOT, SNAPSHOT_SOURCE } from "./snapshot";

/**
 * Exchange rates: EUR-based reference rates cached in `exchange_rates`, every other pair
 * cross-computed in SQL numeric. The arithmetic is written down in docs/exchange.md.
 */

/**
 * Significant digits of a cross rate (ECB publishes 5 or 6; 12 keeps every one of them).
 * Documents shown to buyers round further, to DISPLAY_RATE_DIGITS (display.ts).
 */
const RATE_SIGNIFICANT_DIGITS = 12;

/** ISO 4217 minor units that are not 2. */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Decimals of the currency's minor unit (ISO 4217): 2 unless listed otherwise. */
export function minorUnit(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

/** Amounts `convert` takes: non-negative, plain decimal, up to 15 integer and 8 fraction digits. */
const AMOUNT_RE = /^(0|[1-9]\d{0,14})(\.\d{1,8})?$/;
/** What the rates table accepts exactly (numeric(24,12)); anything else would be rounded. */
const STORED_RATE_RE = /^(0|[1-9]\d{0,11})(\.\d{1,12})?$/;

/**
 * The ECB answers a pair it covers unless the wide source's day is more than this many days
 * newer (a weekend plus Easter's two closing days is 4): ECB for its ~30 currencies, the wide
 * source for the rest and for every pair once the ECB's set is stale (docs/adr/0090).
 */
const ECB_GRACE_DAYS = 4;

/** `source` of a rate an admin set (PUT /api/v1/admin/exchange-rates/:currency). */
const MANUAL_SOURCE = "manual";

/** Where one quote's rate came from and how old it is. */
interface RateProvenance {
  source: string;
  date: string;
  age_days: number;
}

export interface RatesResult {
  base: string;
  date: string;
  source: string;
  age_days: number;
  /** True when the shipped snapshot answered: no refresh has brought a newer day. */
  snapshot: boolean;
  rates: Record<string, string>;
  quotes: Record<string, RateProvenance>;
}

export interface Conversion {
  amount: string;
  from: string;
  to: string;
  rate: string;
  result: string;
  date: string;
  source: string;
  age_days: number;
}

const noRates = () =>
  unavailable(
    "No exchange rates are available yet: no rates provider has been refreshed and no snapshot is loaded",
  );

/** A known currency no source and no manual rate covers: 422 `no_exchange_rate`, never a 500. */
const noRateFor = (field: string, currency: string) =>
  validationError(
    [
      {
        loc: ["query", field],
        msg: `No exchange rate for ${currency} from any source; an admin can set one (PUT /api/v1/admin/exchange-rates/${currency})`,
        type: "no_exchange_rate",
      },
    ],
    `No exchange rate for ${currency}`,
    "no_exchange_rate",
  );

interface RateSet {
  source: string;
  date: string;
  /** Quote -> EUR rate, EUR itself included as "1". */
  rates: Map<string, string>;
}

interface StoredManual {
  base: string;
  rate: string;
  date: string;
}

interface RateBook {
  ecb: RateSet | null;
  wide: RateSet | null;
  manual: Map<string, StoredManual>;
}

async function loadRateBook(deps: Pick<Deps, "db">): Promise<RateBook> {
  const rows = await queries.storedRateSets(deps.db, {
    ecbSource: RATES_SOURCE_ECB,
    snapshotSource: SNAPSHOT_SOURCE,
    wideSource: RATES_SOURCE_EXCHANGERATE_API,
    manualSource: MANUAL_SOURCE,
  });
  const book: RateBook = { ecb: null, wide: null, manual: new Map() };
  for (const row of rows) {
    if (row.set === "manual") {
      book.manual.set(row.quote, { base: row.base, rate: row.rate, date: row.date });
      continue;
    }
    book[row.set] ??= { source: row.source, date: row.date, rates: new Map([["EUR", "1"]]) };
    book[row.set]!.rates.set(row.quote, row.rate);
  }
  return book;
}

const daysBetween = (older: string, newer: string) =>
  Math.round((Date.parse(newer) - Date.parse(older)) / 86_400_000);

/** The set that answers the pair `a`/`b` (ECB first, within its grace), or null. */
function setFor(book: RateBook, a: string, b: string): RateSet | null {
  const covers = (set: RateSet | null): set is RateSet =>
    set !== null && [a, b].every((c) => set.rates.has(c));
  const { ecb, wide } = book;
  if (covers(ecb) && !(covers(wide) && daysBetween(ecb.date, wide.date) > ECB_GRACE_DAYS)) {
    return ecb;
  }
  return covers(wide) ? wide : covers(ecb) ? ecb : null;
}

/** A currency any set or manual rate covers. */
const known = (book: RateBook, c: string) =>
  book.manual.has(c) || !!book.ecb?.rates.has(c) || !!book.wide?.rates.has(c);

type PairTerms =
  | { ok: true; terms: Omit<queries.RateTerms, "quote">; source: string; date: string }
  | { ok: false; missing: "from" | "to" };

/** Manual links a chain of bases follows at most (a longer chain is an admin's loop). */
const MAX_MANUAL_LINKS = 4;

/**
 * Where `c` stands: the manual factors it follows (1 base = f units, the base's own manual rate
 * next) to an anchor with no manual rate of its own (or one already passed), and their dates.
 * AED at 3.6725 per USD with USD at 2 per EUR is 7.345 per EUR: a manual rate on a base moves
 * what it anchors, and never mixes with the sources' rate for that base.
 */
function resolveManual(book: RateBook, c: string) {
  const factors: string[] = [];
  const dates: string[] = [];
  const passed = new Set([c]);
  let anchor = c;
  for (let link = book.manual.get(c); link && factors.length < MAX_MANUAL_LINKS; ) {
    factors.push(link.rate);
    dates.push(link.date);
    anchor = link.base;
    if (passed.has(anchor)) break;
    passed.add(anchor);
    link = book.manual.get(anchor);
  }
  return { factors, dates, anchor };
}

/**
 * How 1 `from` becomes `to`: each side is its manual factors over its anchor (resolveManual),
 * else the currency itself; the two anchors are crossed through the EUR rates of one set
 * (setFor). A manual rate makes the answer's source `manual`; its date is the oldest date used.
 */
function pairTerms(book: RateBook, from: string, to: string): PairTerms {
  const mFrom = resolveManual(book, from);
  const mTo = resolveManual(book, to);
  const aFrom = mFrom.anchor;
  const aTo = mTo.anchor;
  const manualDates = [...mFrom.dates, ...mTo.dates];
  let set: RateSet | null = null;
  if (!(aFrom === aTo && manualDates.length > 0)) {
    set = setFor(book, aFrom, aTo);
    if (!set) {
      const inSomeSet = (c: string) => !!book.ecb?.rates.has(c) || !!book.wide?.rates.has(c);
      return { ok: false, missing: inSomeSet(aFrom) ? "to" : "from" };
    }
  }
  const dates = [...manualDates, ...(set ? [set.date] : [])].sort();
  return {
    ok: true,
    terms: {
      nf: mTo.factors,
      ne: set?.rates.get(aTo) ?? "1",
      df: mFrom.factors,
      de: set?.rates.get(aFrom) ?? "1",
    },
    source: manualDates.length > 0 ? MANUAL_SOURCE : set!.source,
    date: dates[0]!,
  };
}

const isEmpty = (book: RateBook) => !book.ecb && !book.wide && book.manual.size === 0;

/**
 * Rates for `base` against every currency any source (or a manual rate) covers, exact to 12
 * digits, each with its source and date in `quotes`. `date`/`source` at the top are those of
 * the set that answers `base` itself (its manual rate, else the ECB's, else the wide source's).
 */
export async function getRates(deps: Deps, base: string): Promise<RatesResult> {
  const book = await loadRateBook(deps);
  if (isEmpty(book)) throw noRates();
  const own = pairTerms(book, base, base);
  if (!own.ok) throw noRateFor("base", base);
  const quotes = new Set<string>([
    ...(book.ecb?.rates.keys() ?? []),
    ...(book.wide?.rates.keys() ?? []),
    ...book.manual.keys(),
  ]);
  quotes.delete(base);
  const provenance: Record<string, RateProvenance> = {};
  const terms: queries.RateTerms[] = [];
  for (const quote of [...quotes].sort()) {
    const pair = pairTerms(book, base, quote);
    if (!pair.ok) continue;
    terms.push({ quote, ...pair.terms });
    provenance[quote] = {
      source: pair.source,
      date: pair.date,
      age_days: ageInDays(deps, pair.date),
    };
  }
  const rows = await queries.crossRatesOf(deps.db, { terms, digits: RATE_SIGNIFICANT_DIGITS });
  const rates: Record<string, string> = {};
  for (const row of rows) rates[row.quote] = row.rate;
  return {
    base,
    date: own.date,
    source: own.source,
    age_days: ageInDays(deps, own.date),
    snapshot: own.source === SNAPSHOT_SOURCE,
    rates,
    quotes: provenance,
  };
}

/** The amount as the canonical string convert works on; a 422 when it is not a valid amount. */
function parseAmount(amount: string | number): string {
  const text =
    typeof amount === "number" ? (Number.isFinite(amount) ? String(amount) : "") : amount.trim();
  if (!AMOUNT_RE.test(text)) {
    throw validationError([
      {
        loc: ["query", "amount"],
        msg: "Must be a non-negative decimal with at most 15 integer and 8 fraction digits",
        type: "invalid_amount",
      },
    ]);
  }
  return text;
}

/**
 * Converts `amount` (major units of `from`) to `to`: rate = rate(EUR→to) / rate(EUR→from)
 * (through manual rates where set) to 12 significant digits, result = amount × rate exactly,
 * rounded half-even to the minor unit of `to`. Both figures are strings; `rate` reproduces
 * `result` on its own.
 */
export async function convert(
  deps: Deps,
  input: { amount: string | number; from: string; to: string },
): Promise<Conversion> {
  const amount = parseAmount(input.amount);
  const { from, to } = input;
  const book = await loadRateBook(deps);
  if (isEmpty(book)) throw noRates();
  if (!known(book, from)) throw noRateFor("from", from);
  if (!known(book, to)) throw noRateFor("to", to);
  const pair = pairTerms(book, from, to);
  if (!pair.ok) throw noRateFor(pair.missing, pair.missing === "from" ? from : to);
  const row = await queries.convertAmount(deps.db, {
    amount,
    terms: { quote: to, ...pair.terms },
    decimals: minorUnit(to),
    digits: RATE_SIGNIFICANT_DIGITS,
  });
  return {
    amount,
    from,
    to,
    rate: row.rate,
    result: row.result,
    date: pair.date,
    source: pair.source,
    age_days: ageInDays(deps, pair.date),
  };
}

/** Multi-row upsert of one day's EUR rates; returns how many rows were written or changed. */
async function upsertEurRates(
  deps: Pick<Deps, "db" | "clock">,
  day: { date: string; source: string; rates: Record<string, string> },
): Promise<{ written: number }> {
  const entries = Object.entries(day.rates).filter(([quote]) => quote !== "EUR");
  for (const [quote, rate] of entries) {
    if (!/^[A-Z]{3}$/.test(quote) || !STORED_RATE_RE.test(rate) || /^0(\.0*)?$/.test(rate)) {
      throw new Error(`refusing to store the rate ${quote}=${rate}`);
    }
  }
  if (entries.length === 0) return { written: 0 };
  const rows = await queries.upsertEurRates(deps.db, {
    date: day.date,
    source: day.source,
    rates: entries,
    now: deps.clock.now().toISOString(),
  });
  return { written: rows.length };
}

export type RefreshOutcome =
  | { status: "skipped"; reason: "not_configured" }
  | { status: "refreshed"; date: string; source: string; currencies: number; written: number };

/**
 * Fetches the latest EUR reference rates and upserts them in one statement. Idempotent: a rerun
 * of the same day writes nothing (`written: 0`); a corrected rate replaces the old one.
 * Provider failures (RatesUnavailableError) propagate, so the scheduler logs them.
 */
export async function refreshExchangeRates(
  deps: Deps,
  client: RatesClient | null = ratesClientFromEnv(deps),
): Promise<RefreshOutcome> {
  if (!client) return { status: "skipped", reason: "not_configured" };
  const latest = await client.latest("EUR");
  const { written } = await upsertEurRates(deps, {
    date: latest.date,
    source: RATES_SOURCE_ECB,
    rates: latest.rates,
  });
  return {
    status: "refreshed",
    date: latest.date,
    source: RATES_SOURCE_ECB,
    currencies: Object.keys(latest.rates).length,
    written,
  };
}

/**
 * Loads the shipped snapshot's day (under its own source) unless it is already there, so a
 * fresh install answers `rates` and `convert` without network and an install that cannot reach
 * the provider falls back to the newest snapshot a build shipped. Rows of other days and
 * sources are left alone; the newest day still answers. One statement; run on every start.
 */
export async function seedRatesSnapshot(
  deps: Pick<Deps, "db" | "clock">,
): Promise<{ inserted: number }> {
  const { written } = await upsertEurRates(deps, {
    date: RATES_SNAPSHOT.date,
    source: RATES_SNAPSHOT.source,
    rates: RATES_SNAPSHOT.rates,
  });
  return { inserted: written };
}

/**
 * Fetches the wide source's latest EUR day (ExchangeRate-API protocol, ~160 currencies) and
 * upserts it under its own source, like refreshExchangeRates. Failures propagate.
 */
async function refreshWideRates(
  deps: Deps,
  client: RatesClient | null = wideRatesClientFromEnv(deps),
): Promise<RefreshOutcome> {
  if (!client) return { status: "skipped", reason: "not_configured" };
  const latest = await client.latest("EUR");
  const { written } = await upsertEurRates(deps, {
    date: latest.date,
    source: RATES_SOURCE_EXCHANGERATE_API,
    rates: latest.rates,
  });
  return {
    status: "refreshed",
    date: latest.date,
    source: RATES_SOURCE_EXCHANGERATE_API,
    currencies: Object.keys(latest.rates).length,
    written,
  };
}

/** What one source did in a refresh of every source. */
type SourceOutcome =
  | RefreshOutcome
  | { status: "fresh"; source: string; date: string }
  | { status: "failed"; source: string; reason: string };

export interface RefreshAllOutcome {
  ecb: SourceOutcome;
  wide: SourceOutcome;
}

interface RefreshAllOptions {
  /** Deadline of each source's fetch (the start-up refresh keeps it short). */
  timeoutMs?: number;
  /** Only sources whose newest stored day is older than yesterday (the start-up refresh). */
  onlyStale?: boolean;
}

/**
 * Refreshes every configured source (ECB, then the wide one), each on its own: one failing is
 * reported (`failed` with the provider's reason) and does not stop the other. Never throws for a
 * provider; a database error propagates.
 */
export async function refreshAllRates(
  deps: Deps,
  options: RefreshAllOptions = {},
): Promise<RefreshAllOutcome> {
  const clientOptions = options.timeoutMs ? { timeoutMs: options.timeoutMs } : {};
  const one = async (
    source: string,
    client: RatesClient | null,
    refresh: (deps: Deps, client: RatesClient | null) => Promise<RefreshOutcome>,
  ): Promise<SourceOutcome> => {
    if (client && options.onlyStale) {
      const newest = await queries.newestDay(deps.db, { source });
      if (newest && ageInDays(deps, newest) <= 1) return { status: "fresh", source, date: newest };
    }
    try {
      return await refresh(deps, client);
    } catch (error) {
      if (error instanceof RatesUnavailableError || error instanceof RatesRequestError) {
        return {
          status: "failed",
          source,
          reason: error instanceof RatesUnavailableError ? error.reason : "bad_request",
        };
      }
      throw error;
    }
  };
  return {
    ecb: await one(RATES_SOURCE_ECB, ratesClientFromEnv(deps, clientOptions), refreshExchangeRates),
    wide: await one(
      RATES_SOURCE_EXCHANGERATE_API,
      wideRatesClientFromEnv(deps, clientOptions),
      refreshWideRates,
    ),
  };
}

/** Thrown by the scheduled refresh when a configured source failed (after the others ran). */
class RatesRefreshFailedError extends Error {
  constructor(readonly outcome: RefreshAllOutcome) {
    const failed = Object.values(outcome)
      .filter((o): o is Extract<SourceOutcome, { status: "failed" }> => o.status === "failed")
      .map((o) => `${o.source}: ${o.reason}`);
    super(`exchange rates refresh failed (${failed.join(", ")})`);
    this.name = "RatesRefreshFailedError";
  }
}

/** The scheduled refresh: every source; a failed one makes the run fail (and be logged). */
export async function scheduledRatesRefresh(deps: Deps): Promise<RefreshAllOutcome> {
  const outcome = await refreshAllRates(deps);
  if (Object.values(outcome).some((o) => o.status === "failed")) {
    throw new RatesRefreshFailedError(outcome);
  }
  return outcome;
}

/** Fetch deadline of the start-up refresh: it runs beside the first requests, never before. */
const STARTUP_REFRESH_TIMEOUT_MS = 5_000;

/**
 * Start-up: refreshes each configured source whose newest stored day is older than yesterday,
 * each fetch bounded by STARTUP_REFRESH_TIMEOUT_MS. Meant to run in the background (the Node
 * start does not await it); never throws: a failure is logged and the stored rates answer.
 */
export async function refreshStaleRatesAtStart(
  deps: Deps,
  timeoutMs = STARTUP_REFRESH_TIMEOUT_MS,
): Promise<RefreshAllOutcome | null> {
  try {
    const outcome = await refreshAllRates(deps, { onlyStale: true, timeoutMs });
    deps.logger.info("exchange rates at start-up", { outcome });
    return outcome;
  } catch (error) {
    deps.logger.error("exchange rates refresh at start-up failed", { error });
    return null;
  }
}

/** Manual rates: 1 `base` = `rate` units of the currency; at most this much. */
export const MANUAL_RATE_MAX = 1_000_000_000;

export interface ManualRate {
  currency: string;
  base: string;
  rate: string;
  date: string;
  source: "manual";
  updated_at: string;
}

/**
 * Sets (or replaces) `currency`'s manual rate, dated the clock's UTC day, with its audit row.
 * `rate` is a canonical decimal (checked by the route's schema).
 */
export async function putManualRate(
  deps: Deps,
  actor: Actor,
  input: { currency: string; base: string; rate: string },
): Promise<ManualRate> {
  if (input.base === input.currency) {
    throw validationError([
      { loc: ["body", "base"], msg: "base must differ from the currency", type: "value_error" },
    ]);
  }
  // pairTerms crosses a manual rate's base through a source's set, never through another manual
  // rate: a base no source covers would be stored and then never answer (convert 422, rates {}).
  const book = await loadRateBook(deps);
  if (!book.ecb?.rates.has(input.base) && !book.wide?.rates.has(input.base)) {
    throw validationError(
      [
        {
          loc: ["body", "base"],
          msg: `No source has a rate for ${input.base}: quote a manual rate against a currency the sources cover (e.g. USD or EUR)`,
          type: "no_exchange_rate",
        },
      ],
      `No exchange rate for ${input.base}`,
      "no_exchange_rate",
    );
  }
  const now = deps.clock.now();
  const row = await queries.putManualRate(deps.db, {
    actor,
    currency: input.currency,
    base: input.base,
    rate: input.rate,
    date: now.toISOString().slice(0, 10),
    now: now.toISOString(),
    source: MANUAL_SOURCE,
  });
  return { ...row, source: MANUAL_SOURCE, updated_at: iso(row.updated_at) };
}

/** Removes `currency`'s manual rate (404 when it has none), with its audit row. */
export async function deleteManualRate(deps: Deps, actor: Actor, currency: string) {
  const row = await queries.deleteManualRate(deps.db, {
    actor,
    currency,
    now: deps.clock.now().toISOString(),
    source: MANUAL_SOURCE,
  });
  if (!row) throw notFound(`No manual rate for ${currency}`);
}

/** An admin's refresh of every source, audited with what each source did. */
export async function adminRefreshRates(deps: Deps, actor: Actor): Promise<RefreshAllOutcome> {
  const outcome = await refreshAllRates(deps);
  await queries.auditRefresh(deps.db, {
    actor,
    outcome: { ...outcome },
    now: deps.clock.now().toISOString(),
  });
  return outcome;
}

import { unavailable, validationError } from "../../http/errors";
import type { Deps } from "../../ports";
import { ratesClientFromEnv } from "../../providers/rates";
import { RATES_SOURCE_ECB, type RatesClient } from "../../providers/rates/frankfurter";
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

export interface RatesResult {
  base: string;
  date: string;
  source: string;
  /** True when the shipped snapshot answered: no refresh has brought a newer day. */
  snapshot: boolean;
  rates: Record<string, string>;
}

export interface Conversion {
  amount: string;
  from: string;
  to: string;
  rate: string;
  result: string;
  date: string;
  source: string;
}

const noRates = () =>
  unavailable(
    "No exchange rates are available yet: no rates provider has been refreshed and no snapshot is loaded",
  );

const unknownCurrency = (field: string) =>
  validationError([{ loc: ["query", field], msg: "Unknown currency", type: "unknown_currency" }]);

/** Rates of the newest date for `base`, every other currency as quote, exact to 12 digits. */
export async function getRates(deps: Deps, base: string): Promise<RatesResult> {
  const rows = await queries.crossRates(deps.db, {
    base,
    snapshotSource: SNAPSHOT_SOURCE,
    digits: RATE_SIGNIFICANT_DIGITS,
  });
  const first = rows[0];
  if (!first) throw noRates();
  if (first.quote === null) throw unknownCurrency("base");
  const rates: Record<string, string> = {};
  for (const row of rows) if (row.quote && row.rate) rates[row.quote] = row.rate;
  return {
    base,
    date: first.date,
    source: first.source,
    snapshot: first.source === SNAPSHOT_SOURCE,
    rates,
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
 * to 12 significant digits, result = amount × rate exactly, rounded half-even to the minor
 * unit of `to`. Both figures are strings; `rate` reproduces `result` on its own.
 */
export async function convert(
  deps: Deps,
  input: { amount: string | number; from: string; to: string },
): Promise<Conversion> {
  const amount = parseAmount(input.amount);
  const { from, to } = input;
  const decimals = minorUnit(to);
  const row = await queries.convertAmount(deps.db, {
    amount,
    from,
    to,
    decimals,
    snapshotSource: SNAPSHOT_SOURCE,
    digits: RATE_SIGNIFICANT_DIGITS,
  });
  if (!row) throw noRates();
  if (!row.from_known) throw unknownCurrency("from");
  if (!row.to_known) throw unknownCurrency("to");
  return {
    amount,
    from,
    to,
    rate: row.rate!,
    result: row.result!,
    date: row.date,
    source: row.source,
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

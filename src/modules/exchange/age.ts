import type { Clock } from "../../lib/clock";

/**
 * How old a rate is, as conversions and quotations say it: whole days from its date to the
 * clock's UTC day (never negative), and the warning a quotation carries once a rate it prices
 * with is older than STALE_RATE_DAYS.
 */

/** Days a rate may age before a quotation warns about it. */
const STALE_RATE_DAYS = 7;

/** Whole days from `date` (YYYY-MM-DD) to the clock's UTC day; never negative. */
export function ageInDays(deps: { clock: Clock }, date: string): number {
  const today = Date.parse(deps.clock.now().toISOString().slice(0, 10));
  const day = Date.parse(String(date).slice(0, 10));
  if (Number.isNaN(day)) return 0;
  return Math.max(0, Math.round((today - day) / 86_400_000));
}

export interface QuotationWarning {
  code: "stale_exchange_rate";
  detail: string;
}

interface DatedRate {
  from: string;
  to: string;
  rate: string;
  date: string;
  source: string;
}

/**
 * A quotation as answered: each frozen rate with its `age_days`, and a `stale_exchange_rate`
 * warning for each rate older than STALE_RATE_DAYS.
 */
export function withRateAges<T extends { exchange_rates: DatedRate[] }>(
  deps: { clock: Clock },
  quotation: T,
): Omit<T, "exchange_rates"> & {
  exchange_rates: (DatedRate & { age_days: number })[];
  warnings: QuotationWarning[];
} {
  const warnings: QuotationWarning[] = [];
  const exchange_rates = quotation.exchange_rates.map((rate) => {
    const age_days = ageInDays(deps, rate.date);
    if (age_days > STALE_RATE_DAYS) {
      warnings.push({
        code: "stale_exchange_rate",
        detail: `The ${rate.from}/${rate.to} rate (${rate.source}, ${rate.date}) is ${age_days} days old: reprice or check it before sending`,
      });
    }
    return { ...rate, age_days };
  });
  return { ...quotation, exchange_rates, warnings };
}

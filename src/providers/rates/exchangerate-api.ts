/**
 * Client for the ExchangeRate-API "open access" protocol (no key): one request gives every
 * currency the provider tracks (about 160) against a base, updated once a day. Edge-safe: fetch
 * only. Provider code only: no database, no config reading.
 *
 *   GET {baseUrl}/v6/latest/{BASE}
 *   200 {"result": "success", "base_code": "EUR", "time_last_update_unix": 1704326401,
 *        "time_last_update_utc": "Thu, 04 Jan 2024 00:00:01 +0000", ...,
 *        "rates": {"EUR": 1, "AED": 4.0211, ...}}
 *   an error: {"result": "error", "error-type": "unsupported-code"} (any status)
 *
 * The day of the rates is the UTC day of `time_last_update_unix`. As with the ECB client, the
 * rates are read as decimal strings from the raw JSON text (never through a float); the floats
 * JSON.parse gives only cross-check them. Codes the provider lists that are not ISO 4217
 * currencies in circulation (its local pounds, withdrawn codes) are left out; a rate with more
 * than 12 decimals (what the store keeps) is rounded half-even to 12, and one that rounds to
 * zero is left out.
 */
import { z } from "zod";
import {
  getRatesDocument,
  type RatesClient,
  RatesRequestError,
  RatesUnavailableError,
  rawRates,
} from "./frankfurter";

export const RATES_SOURCE_EXCHANGERATE_API = "ExchangeRate-API";

const CURRENCY_RE = /^[A-Z]{3}$/;
/** Decimals the rates table keeps (numeric(24,12)). */
const STORED_DECIMALS = 12;

const successSchema = z.object({
  result: z.literal("success"),
  base_code: z.string().regex(CURRENCY_RE),
  time_last_update_unix: z.number().int().positive(),
  rates: z.record(z.string(), z.number().positive().finite()),
});
const errorSchema = z.object({ result: z.literal("error"), "error-type": z.string().optional() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A plain positive decimal rounded half-even to 12 decimals, trailing zeros dropped; "0" when
 * it rounds to nothing. BigInt, exact.
 */
export function roundToStoredDecimals(decimal: string): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!m) throw new Error(`not a plain decimal: ${decimal}`);
  const fraction = m[2] ?? "";
  if (fraction.length <= STORED_DECIMALS) return decimal;
  const n = BigInt(`${m[1]}${fraction}`);
  const unit = 10n ** BigInt(fraction.length - STORED_DECIMALS);
  let k = n / unit;
  const twice = 2n * (n - k * unit);
  if (twice > unit || (twice === unit && k % 2n === 1n)) k += 1n;
  const text = k.toString().padStart(STORED_DECIMALS + 1, "0");
  const whole = text.slice(0, -STORED_DECIMALS);
  const frac = text.slice(-STORED_DECIMALS).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

export interface ExchangeRateApiClientOptions {
  /** The protocol's root, without `/v6`; a path prefix is kept. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Whole-request deadline, body included. Default 10000 ms. */
  timeoutMs?: number;
  /** Which codes to keep (ISO 4217 in circulation); all when unset. */
  isCurrency?: (code: string) => boolean;
}

export function createExchangeRateApiClient(opts: ExchangeRateApiClientOptions): RatesClient {
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const root = opts.baseUrl.replace(/\/+$/, "");
  const keep = opts.isCurrency ?? (() => true);

  async function latest(base = "EUR") {
    if (!CURRENCY_RE.test(base)) throw new RatesRequestError("base must be an ISO 4217 code");
    const url = new URL(`${root}/v6/latest/${base}`);
    const { status, text } = await getRatesDocument(doFetch, url, timeoutMs);
    return parseDay(base, status, text);
  }

  /** The day an answer carries, or the RatesUnavailableError it amounts to. */
  function parseDay(base: string, status: number, text: string) {
    const json = parseJson(text);
    if (status === 429) throw new RatesUnavailableError("rate_limited", { status });
    if (errorSchema.safeParse(json).success) {
      throw new RatesUnavailableError("provider_error", { status });
    }
    if (status < 200 || status >= 300) throw new RatesUnavailableError("http_status", { status });
    const parsed = successSchema.safeParse(json);
    if (!parsed.success || parsed.data.base_code !== base) {
      throw new RatesUnavailableError("bad_response", { status });
    }
    const exact = rawRates(text);
    const floats = parsed.data.rates;
    const keys = Object.keys(floats);
    const consistent =
      exact !== undefined &&
      keys.length > 0 &&
      keys.length === Object.keys(exact).length &&
      keys.every((k) => exact[k] !== undefined && Number(exact[k]) === floats[k]);
    if (!consistent) throw new RatesUnavailableError("bad_response", { status });
    const rates: Record<string, string> = {};
    for (const [quote, rate] of Object.entries(exact)) {
      if (quote === base || !keep(quote)) continue;
      const stored = roundToStoredDecimals(rate);
      if (stored !== "0") rates[quote] = stored;
    }
    const date = new Date(parsed.data.time_last_update_unix * 1000).toISOString().slice(0, 10);
    return { base, date, rates };
  }

  return {
    latest,
    onDate() {
      // The open-access protocol has no history.
      return Promise.reject(new RatesRequestError("this source serves the latest day only"));
    },
  };
}

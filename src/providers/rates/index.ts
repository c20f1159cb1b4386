import { isCurrencyCode } from "../../lib/currency";
import type { Deps } from "../../ports";
import { createExchangeRateApiClient } from "./exchangerate-api";
import { createFrankfurterClient, type RatesClient } from "./frankfurter";

export type { RatesClient } from "./frankfurter";

/** Timeouts a caller may impose (the start-up refresh bounds its fetches tighter). */
export interface RatesClientOptions {
  timeoutMs?: number;
}

/** The configured ECB (Frankfurter protocol) client, or null (stored rates and the snapshot answer). */
export function ratesClientFromEnv(
  deps: Pick<Deps, "config" | "fetch">,
  options: RatesClientOptions = {},
): RatesClient | null {
  const baseUrl = deps.config.RATES_API_URL;
  return baseUrl ? createFrankfurterClient({ baseUrl, fetch: deps.fetch, ...options }) : null;
}

/**
 * The configured second source (ExchangeRate-API open-access protocol, ~160 currencies), or
 * null when RATES_WIDE_API_URL is off.
 */
export function wideRatesClientFromEnv(
  deps: Pick<Deps, "config" | "fetch">,
  options: RatesClientOptions = {},
): RatesClient | null {
  const baseUrl = deps.config.RATES_WIDE_API_URL;
  return baseUrl
    ? createExchangeRateApiClient({
        baseUrl,
        fetch: deps.fetch,
        isCurrency: isCurrencyCode,
        ...options,
      })
    : null;
}

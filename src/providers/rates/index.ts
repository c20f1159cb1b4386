import type { Deps } from "../../ports";
import { createFrankfurterClient, type RatesClient } from "./frankfurter";

export type { RatesClient } from "./frankfurter";

/** The configured rates client, or null (the stored rates and the shipped snapshot answer). */
export function ratesClientFromEnv(deps: Pick<Deps, "config" | "fetch">): RatesClient | null {
  const baseUrl = deps.config.RATES_API_URL;
  return baseUrl ? createFrankfurterClient({ baseUrl, fetch: deps.fetch }) : null;
}

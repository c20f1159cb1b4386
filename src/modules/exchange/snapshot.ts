import { SNAPSHOT_DATA } from "./snapshot-data";

/**
 * The euro foreign exchange reference rates the ECB published on one day, shipped with the
 * build (snapshot-data.ts, rewritten by `npm run rates:snapshot`) so the service converts with
 * no network. Quoted as published: one euro buys `rate` units. The daily refresh from
 * RATES_API_URL adds newer days; these rows stay under their own source, so every answer says
 * which set it came from, and a newer build's snapshot is loaded on its next start.
 */
export const SNAPSHOT_SOURCE = "ECB (snapshot)";

export const RATES_SNAPSHOT = {
  base: "EUR",
  date: SNAPSHOT_DATA.date,
  source: SNAPSHOT_SOURCE,
  rates: SNAPSHOT_DATA.rates as Readonly<Record<string, string>>,
} as const;

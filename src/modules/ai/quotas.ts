import { nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { releaseQuotaChars, reserveQuotaChars } from "./queries";

/**
 * Per-provider translation quotas (table `translation_quotas`: a day row and/or a month row per
 * provider, each `char_limit` characters per UTC period). A provider without enabled rows is
 * unlimited. The statements are in ./queries.ts.
 */

/**
 * Reserves `chars` characters on every enabled quota row of the provider, all or nothing, in
 * one statement (a period that has ended rolls over first). Returns whether it was granted.
 */
export function reserveQuota(
  deps: Deps,
  providerId: string,
  chars: number,
  at: string = nowIso(deps),
): Promise<boolean> {
  return reserveQuotaChars(deps.db, { providerId, chars, at });
}

/**
 * Gives reserved characters back after the provider call failed, only on rows still in the
 * period the reservation was made in. Never below 0.
 */
export function releaseQuota(
  deps: Deps,
  providerId: string,
  chars: number,
  reservedAt: string,
): Promise<void> {
  return releaseQuotaChars(deps.db, { providerId, chars, reservedAt, at: nowIso(deps) });
}

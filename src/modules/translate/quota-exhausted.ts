import { ApiError } from "../../http/errors";
import type { Deps } from "../../ports";
import { blockingQuota } from "../ai/queries";

/**
 * Every translation provider was skipped because its quota is used up (none failed): the
 * client is told it is a quota, with the tightest limit and when it resets, rather than that
 * the service is down. 503 with Retry-After until the earliest reset, since the service is out
 * of capacity for everyone, not the caller over a budget of their own.
 */
export async function translationQuotaExhausted(
  deps: Deps,
  input: { providerIds: string[]; chars: number; at: string },
): Promise<ApiError> {
  // The rows that refused these characters, the one freeing up first.
  const blocking = await blockingQuota(deps.db, input);
  if (!blocking) {
    return new ApiError(503, "The translation quota is used up; your credits were returned", {
      code: "quota_exhausted",
      extra: { reason: "quota_exhausted" },
      headers: { "Retry-After": "60" },
    });
  }
  const waitMs = Date.parse(blocking.resets_at) - Date.parse(input.at);
  return new ApiError(
    503,
    `The translation quota is used up (${blocking.char_limit} characters a ${blocking.period}); ` +
      `it resets at ${blocking.resets_at}. Your credits were returned`,
    {
      code: "quota_exhausted",
      extra: { reason: "quota_exhausted", resets_at: blocking.resets_at },
      headers: { "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))) },
    },
  );
}

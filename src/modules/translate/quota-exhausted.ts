import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";

/**
 * Every translation provider was skipped because its quota is used up (none failed): the
 * client is told it is a quota, with the tightest limit and when it resets, rather than that
 * the service is down. 503 with Retry-After until the earliest reset, since the service is out
 * of capacity for everyone, not the caller over a budget of their own.
 */
const periodEnd = sql`(q.period_start + case q.period when 'day' then interval '1 day'
  else interval '1 month' end)`;

export async function translationQuotaExhausted(
  deps: Deps,
  input: { providerIds: string[]; chars: number; at: string },
): Promise<ApiError> {
  const ids = sql.join(
    input.providerIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // The rows that refused these characters, the one freeing up first.
  const [blocking] = await queryRows<{ char_limit: number; period: string; resets_at: string }>(
    deps.db,
    sql`select q.char_limit, q.period,
          to_char(${periodEnd} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as resets_at
        from translation_quotas q
        where q.enabled and q.provider_id in (${ids})
          and ${periodEnd} > ${input.at}::timestamptz
          and q.chars_used + ${input.chars}::int > q.char_limit
        order by ${periodEnd}
        limit 1`,
  );
  if (!blocking) {
    return new ApiError(503, "The translation quota is used up; your credits were returned", {
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
      extra: { reason: "quota_exhausted", resets_at: blocking.resets_at },
      headers: { "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))) },
    },
  );
}

import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";

/** Outcomes are replayed for at least this long (the issue asks for 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export type IdempotencyClaim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: unknown }
  | { kind: "mismatch" }
  | { kind: "in_flight" };

/**
 * Claims (user, key) for this request in one statement. An expired claim is taken over; a
 * live one answers with the stored outcome, or says the first request is still running, or
 * that the key was used for a different request.
 */
export async function claimIdempotencyKey(
  deps: Deps,
  input: { userId: string; key: string; requestHash: string },
): Promise<IdempotencyClaim> {
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString();
  const [row] = await queryRows<{
    claimed: boolean | null;
    request_hash: string | null;
    status: string | null;
    response_status: number | null;
    response_body: unknown;
  }>(
    deps.db,
    sql`with claimed as (
        insert into idempotency_keys (user_id, key, request_hash, status, created_at, expires_at)
        values (${input.userId}, ${input.key}, ${input.requestHash}, 'in_flight',
                ${now.toISOString()}::timestamptz, ${expires}::timestamptz)
        on conflict (user_id, key) do update
          set request_hash = excluded.request_hash, status = 'in_flight', response_status = null,
              response_body = null, created_at = excluded.created_at, expires_at = excluded.expires_at
          where idempotency_keys.expires_at <= ${now.toISOString()}::timestamptz
        returning true as claimed)
      select (select claimed from claimed) as claimed, k.request_hash, k.status,
             k.response_status, k.response_body
      from (select 1) one
      left join idempotency_keys k on k.user_id = ${input.userId} and k.key = ${input.key}`,
  );
  if (row?.claimed) return { kind: "claimed" };
  // Not claimed and not visible yet: a parallel first request holds it.
  if (!row?.request_hash) return { kind: "in_flight" };
  if (row.request_hash !== input.requestHash) return { kind: "mismatch" };
  if (row.status !== "completed") return { kind: "in_flight" };
  return { kind: "replay", status: row.response_status ?? 200, body: row.response_body };
}

export async function completeIdempotencyKey(
  deps: Deps,
  input: { userId: string; key: string; status: number; body: unknown },
) {
  await deps.db.execute(
    sql`update idempotency_keys set status = 'completed', response_status = ${input.status},
          response_body = ${JSON.stringify(input.body ?? null)}::jsonb
        where user_id = ${input.userId} and key = ${input.key}`,
  );
}

/** A request that failed on our side gives its key back, so the client's retry can run. */
export async function releaseIdempotencyKey(deps: Deps, input: { userId: string; key: string }) {
  await deps.db.execute(
    sql`delete from idempotency_keys
        where user_id = ${input.userId} and key = ${input.key} and status = 'in_flight'`,
  );
}

export async function purgeExpiredIdempotencyKeys(deps: Deps) {
  await deps.db.execute(
    sql`delete from idempotency_keys where expires_at <= ${deps.clock.now().toISOString()}::timestamptz`,
  );
}

import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import type { IdempotencyClaim, IdempotencyKeyStore } from "../../http/idempotency";
import { KEY_LEASE_MS } from "../inflight/heartbeat";
import { orphanedHoldRefundSql } from "./holds";

/** Outcomes are replayed for at least this long (the issue asks for 24 hours). */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * Claims (user, key) for this request in one statement. A live claim answers with the stored
 * outcome, or says the first request is still running, or that the key was used for a
 * different request. A completed key lives IDEMPOTENCY_TTL_MS; one in flight only KEY_LEASE_MS,
 * renewed by its instance's heartbeat while the request runs, so after a crash a retry takes the
 * key over within seconds, and the statement that takes it over refunds the charge the dead
 * attempt left held (credits/holds.ts).
 */
async function claimIdempotencyKey(
  deps: Deps,
  input: { userId: string; key: string; requestHash: string },
): Promise<IdempotencyClaim> {
  const now = deps.clock.now();
  const lease = new Date(now.getTime() + KEY_LEASE_MS).toISOString();
  const staleBefore = new Date(now.getTime() - KEY_LEASE_MS).toISOString();
  const [row] = await queryRows<{
    claimed: boolean | null;
    request_hash: string | null;
    status: string | null;
    response_status: number | null;
    response_body: unknown;
  }>(
    deps.db,
    sql`with claimed as (
        insert into idempotency_keys (user_id, key, request_hash, status, instance_id, created_at,
          expires_at)
        values (${input.userId}, ${input.key}, ${input.requestHash}, 'in_flight',
                ${deps.work.instanceId}, ${now.toISOString()}::timestamptz, ${lease}::timestamptz)
        on conflict (user_id, key) do update
          set request_hash = excluded.request_hash, status = 'in_flight', response_status = null,
              response_body = null, instance_id = excluded.instance_id,
              created_at = excluded.created_at, expires_at = excluded.expires_at
          where idempotency_keys.expires_at <= ${now.toISOString()}::timestamptz
        returning true as claimed),
      ${orphanedHoldRefundSql(deps, input, staleBefore)}
      select (select claimed from claimed) as claimed, k.request_hash, k.status,
             k.response_status, k.response_body,
             (select count(*) from orphans_refunded)::int as orphans_refunded
      from (select 1) one
      left join idempotency_keys k on k.user_id = ${input.userId} and k.key = ${input.key}`,
  );
  if (row?.claimed) {
    deps.work.trackKey(input.userId, input.key);
    return { kind: "claimed" };
  }
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
  const expires = new Date(deps.clock.now().getTime() + IDEMPOTENCY_TTL_MS).toISOString();
  try {
    await deps.db.execute(
      sql`update idempotency_keys set status = 'completed', response_status = ${input.status},
            response_body = ${JSON.stringify(input.body ?? null)}::jsonb, instance_id = null,
            expires_at = ${expires}::timestamptz
          where user_id = ${input.userId} and key = ${input.key}`,
    );
  } finally {
    deps.work.untrackKey(input.userId, input.key);
  }
}

/** A request that failed on our side gives its key back, so the client's retry can run. */
export async function releaseIdempotencyKey(deps: Deps, input: { userId: string; key: string }) {
  try {
    await deps.db.execute(
      sql`delete from idempotency_keys
          where user_id = ${input.userId} and key = ${input.key} and status = 'in_flight'`,
    );
  } finally {
    deps.work.untrackKey(input.userId, input.key);
  }
}

/** At start-up: the keys a previous life of this instance left in flight are free again. */
export async function releaseInstanceKeys(deps: Deps): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`with gone as (
        delete from idempotency_keys
        where status = 'in_flight' and instance_id = ${deps.work.instanceId} returning 1)
      select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}

export async function purgeExpiredIdempotencyKeys(deps: Deps) {
  await deps.db.execute(
    sql`delete from idempotency_keys where expires_at <= ${deps.clock.now().toISOString()}::timestamptz`,
  );
}

/** What src/http/idempotency.ts asks of this module, as deps.idempotencyKeys (see buildDeps). */
export const idempotencyKeyStore: IdempotencyKeyStore = {
  claim: claimIdempotencyKey,
  complete: completeIdempotencyKey,
  release: releaseIdempotencyKey,
};

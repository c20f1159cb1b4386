import { sql } from "drizzle-orm";
import { ASYNC_COMMIT, inTimedBatches, KEYSET_START, type KeysetCursor } from "../../../db/batches";
import { type Db, queryRowsPrepared } from "../../../db/client";

/**
 * The hourly write-off of allowance lots past their expiry, set-based in keyset batches over the
 * due lots (credit_lots_expiring_idx: a run reads the due lots only, none when nothing is due),
 * each batch ONE statement: it picks the next due lots, locks their organisations' wallets
 * (skipping one a charge holds: next run's), then every due lot of those wallets, zeroes them,
 * lowers each wallet by their sum and writes each lot's `expiry` ledger row, balance_after
 * running down from the wallet's balance in the order credit_expire_due_org writes them (expiry,
 * creation, id). Every balance change is one statement with its ledger rows; wallets are locked
 * before their lots, as a charge locks them, so the two never deadlock.
 */
export async function expireDueLots(
  db: Db,
  params: { now: string },
): Promise<{ wallets: number; total: number }> {
  const now = sql`${params.now}::timestamptz`;
  const sum = { wallets: 0, total: 0 };
  // Resumes after the (expiry, id) of the last lot a batch picked.
  let after: KeysetCursor = KEYSET_START;
  await inTimedBatches(async (limit) => {
    // A named statement (its values all parameters): a run sends it hundreds of times, and its
    // planning (~2 ms) was a fixed part of every batch.
    const [row] = await queryRowsPrepared<{
      picked: number;
      at: string | null;
      id: string | null;
      wallets: number;
      total: number;
    }>(
      db,
      sql`with picked as materialized (
          -- The next lots from the cursor, then those of them due: bounded by "due" inside, the
          -- planner estimated few rows and read every due lot by bitmap to sort them, each batch.
          select w.* from (
            select l.id, l.org_id, l.expires_at from credit_lots l
            where l.remaining > 0 and l.expires_at is not null
              and (l.expires_at, l.id) > (${after.at}::timestamptz, ${after.id}::uuid)
            order by l.expires_at, l.id limit ${limit}) w
          where w.expires_at <= ${now}),
        wallet_locked as (
          select oc.org_id from org_credits oc
          where oc.org_id in (select org_id from picked)
          order by oc.org_id for update of oc skip locked),
        locked as materialized (
          select l.id, l.org_id, l.user_id, l.remaining, l.expires_at, l.created_at
          from credit_lots l
          where l.org_id in (select org_id from wallet_locked)
            and l.remaining > 0 and l.expires_at is not null and l.expires_at <= ${now}
          for update of l),
        due as (
          select k.*, sum(k.remaining) over (partition by k.org_id
              order by k.expires_at, k.created_at, k.id) as run,
            sum(k.remaining) over (partition by k.org_id) as org_total
          from locked k),
        wallet as (
          update org_credits oc set balance = oc.balance - t.total, updated_at = ${now}
          from (select org_id, sum(remaining) as total from locked group by org_id) t
          where oc.org_id = t.org_id
          returning oc.org_id, oc.balance + t.total as before),
        before_of as materialized (
          -- Each wallet's balance looked up in one object, not joined: the planner takes a CTE
          -- for one row and joined the two in a nested loop, batch size squared.
          select jsonb_object_agg(org_id, before) as before from wallet),
        gone as (
          update credit_lots set remaining = 0 from locked k where credit_lots.id = k.id),
        ledger as (
          insert into credit_ledger (org_id, user_id, delta, balance_after, kind, source_type,
            source_id, lots, note, created_at)
          select d.org_id, d.user_id, -d.remaining, (w.before ->> d.org_id::text)::int - d.run,
            'expiry', 'lot', d.id::text,
            jsonb_build_array(jsonb_build_object('lot_id', d.id, 'amount', d.remaining)),
            'Allowance expired', ${now}
          from due d cross join before_of w
          returning org_id, delta),
        last as (select expires_at::text as at, id::text as id from picked
          order by expires_at desc, id desc limit 1)
      select (select count(*)::int from picked) as picked,
        (select at from last) as at, (select id from last) as id,
        (select count(distinct org_id)::int from ledger) as wallets,
        (select coalesce(-sum(delta), 0)::int from ledger) as total,
        ${ASYNC_COMMIT}`,
    );
    sum.wallets += row?.wallets ?? 0;
    sum.total += row?.total ?? 0;
    if (!row?.at || !row.id) return 0;
    after = { at: row.at, id: row.id };
    return row.picked;
  });
  return sum;
}

import { type Column, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { defineCte } from "../../../db/cte";
import { idempotencyKeys } from "../../../db/schema";
import { col, columnNames, type DbRow } from "../../../db/sql";
import { orphanedHoldRefundSql } from "./holds";

type KeyRow = DbRow<typeof idempotencyKeys>;

/**
 * Claims (user, key) in one statement: inserts it in flight, or takes over a row whose expiry
 * passed; in the same statement refunds the hold a dead attempt with this key left. The row
 * says whether it was claimed and what the key holds now (nulls: not visible yet).
 */
export async function claimKey(
  db: Db,
  params: {
    userId: string;
    key: string;
    requestHash: string;
    instanceId: string;
    now: string;
    leaseUntil: string;
    staleBefore: string;
    orphanReason: string;
    /** When the orphaned hold's refund happens. */
    refundNow: string;
  },
) {
  const t = idempotencyKeys;
  const k = alias(idempotencyKeys, "k");
  const now = sql`${params.now}::timestamptz`;
  const set = (column: Column, value: SQL) => sql`${col(column)} = ${value}`;
  const excluded = (column: Column) => sql`excluded.${col(column)}`;
  const [row] = await queryRows<
    { claimed: boolean | null } & {
      [K in "request_hash" | "status" | "response_status"]: KeyRow[K] | null;
    } & { response_body: unknown }
  >(
    db,
    sql`with claimed as (
        insert into ${t} (${columnNames([t.userId, t.key, t.requestHash, t.status, t.instanceId, t.createdAt, t.expiresAt])})
        values (${params.userId}, ${params.key}, ${params.requestHash}, 'in_flight',
                ${params.instanceId}, ${now}, ${params.leaseUntil}::timestamptz)
        on conflict (${columnNames([t.userId, t.key])}) do update
          set ${sql.join(
            [
              set(t.requestHash, excluded(t.requestHash)),
              set(t.status, sql`'in_flight'`),
              set(t.responseStatus, sql`null`),
              set(t.responseBody, sql`null`),
              set(t.instanceId, excluded(t.instanceId)),
              set(t.createdAt, excluded(t.createdAt)),
              set(t.expiresAt, excluded(t.expiresAt)),
            ],
            sql`, `,
          )}
          where ${t.expiresAt} <= ${now}
        returning true as claimed),
      ${orphanedHoldRefundSql({
        userId: params.userId,
        key: params.key,
        staleBefore: params.staleBefore,
        reason: params.orphanReason,
        now: params.refundNow,
      })}
      select (select claimed from claimed) as claimed, ${k.requestHash}, ${k.status},
             ${k.responseStatus}, ${k.responseBody},
             (select count(*) from orphans_refunded)::int as orphans_refunded
      from (select 1) one
      left join ${t} ${k} on ${k.userId} = ${params.userId} and ${k.key} = ${params.key}`,
  );
  return row;
}

interface KeptOutcome {
  userId: string;
  key: string;
  status: number;
  body: unknown;
  expiresAt: string;
}

/**
 * The UPDATE that keeps a request's outcome under its key, replayed until `expiresAt`. Only a
 * key still in flight takes it: an outcome already kept (by the statement that settled the
 * charge, ai/billing.ts) is never overwritten by a later copy.
 */
function keptOutcomeUpdate(params: KeptOutcome, extraCondition?: SQL): SQL {
  const t = idempotencyKeys;
  return sql`update ${t} set ${col(t.status)} = 'completed', ${col(t.responseStatus)} = ${params.status},
          ${col(t.responseBody)} = ${JSON.stringify(params.body ?? null)}::jsonb,
          ${col(t.instanceId)} = null, ${col(t.expiresAt)} = ${params.expiresAt}::timestamptz
        where ${t.userId} = ${params.userId} and ${t.key} = ${params.key} and ${t.status} = 'in_flight'
          ${extraCondition ? sql`and ${extraCondition}` : sql``}`;
}

/** Stores a request's outcome under its key (still in flight), replayed until `expiresAt`. */
export async function completeKey(db: Db, params: KeptOutcome): Promise<void> {
  await db.execute(keptOutcomeUpdate(params));
}

/**
 * A CTE `kept` that keeps the outcome under the key when `condition` holds: for the statement
 * that settles a billed operation's charge, so the charge and the answer a retry gets commit
 * together (a crash can no longer leave a settled charge behind a key that is free again).
 */
export function keptOutcomeCte(params: KeptOutcome, condition: SQL): SQL {
  return keptOutcome.as(sql`${keptOutcomeUpdate(params, condition)} returning 1`);
}

/** The CTE keptOutcomeCte defines (read by no one: named so no other fragment takes its name). */
const keptOutcome = defineCte("kept");

/** Frees a key still in flight. */
export async function deleteInFlightKey(
  db: Db,
  params: { userId: string; key: string },
): Promise<void> {
  const t = idempotencyKeys;
  await db.execute(
    sql`delete from ${t}
        where ${t.userId} = ${params.userId} and ${t.key} = ${params.key} and ${t.status} = 'in_flight'`,
  );
}

/** Frees every key instance `instanceId` holds in flight; how many. */
export async function deleteInFlightKeysOfInstance(
  db: Db,
  params: { instanceId: string },
): Promise<number> {
  const t = idempotencyKeys;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
        delete from ${t}
        where ${t.status} = 'in_flight' and ${t.instanceId} = ${params.instanceId} returning 1)
      select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}

export async function deleteExpiredKeys(db: Db, params: { now: string }): Promise<void> {
  const t = idempotencyKeys;
  await db.execute(sql`delete from ${t} where ${t.expiresAt} <= ${params.now}::timestamptz`);
}

/**
 * A heartbeat CTE `keys`: extends the lease of the in-flight keys `pairs` ([user id, key])
 * that instance `instanceId` holds.
 */
export function renewKeysSql(pairs: [string, string][], instanceId: string, until: SQL): SQL {
  const k = alias(idempotencyKeys, "k");
  return sql`keys as (update ${idempotencyKeys} ${k} set ${col(k.expiresAt)} = ${until}
        from jsonb_array_elements(${JSON.stringify(pairs)}::jsonb) e
        where ${k.userId} = (e ->> 0)::uuid and ${k.key} = e ->> 1 and ${k.status} = 'in_flight'
          and ${k.instanceId} = ${instanceId}
        returning 1)`;
}

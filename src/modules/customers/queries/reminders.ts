import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { KEYSET_START, type KeysetCursor } from "../../../db/batches";
import { type Db, queryRows } from "../../../db/client";
import { customers, notifications, users } from "../../../db/schema";
import { notificationInsert } from "../../notifications/queries/insert";
import { SILENCE_DAYS_SQL } from "./index";

const c = alias(customers, "c");
const name = sql`coalesce(${c.company}, ${c.contactName}, ${c.email}, 'A customer')`;
const since = sql`coalesce(${c.lastContactAt}, ${c.createdAt})`;

/** How many of a user's most overdue customers a digest names (per reason, then overall). */
export const DIGEST_TOP = 5;

/** Where a walk over due customers resumes: the (time, id) of the last one a batch took. */
export type ReminderCursor = KeysetCursor;

/** One due customer as a digest names it. */
export interface DueCustomer {
  customer_id: string;
  customer_name: string;
  reason: "silent" | "followup_due";
  /** Silent: the contact (or creation) it is silent since; follow-up: when it was due. */
  since: string;
  /**
   * UTC calendar days from the day it came due (past the silence limit, or its follow-up time)
   * to the run's day: steady through a day, so an hourly rerun does not rewrite the digest.
   */
  overdue_days: number;
  /** For ordering only: milliseconds overdue. */
  overdue_ms: number;
}

/** One user's share of a batch: how many of their customers it took, the first few in walk order. */
interface UserDue {
  user_id: string;
  n: number;
  top: DueCustomer[];
}

export interface ReminderBatch {
  /** Due customers the batch read; fewer than the limit means the walk is done. */
  taken: number;
  users: UserDue[];
  next: ReminderCursor | null;
}

const START: ReminderCursor = KEYSET_START;

/**
 * One batch of a walk over due customers in `key` order (most overdue first): the next `limit`
 * after `after`, read from the index on (key, id) whose predicate `due` matches, folded per holder
 * into a count and the first DIGEST_TOP in walk order (pool customers: no one's digest). One read-only statement per batch: no row
 * is written or locked, whatever the number of customers.
 */
async function dueBatch(
  db: Db,
  input: {
    reason: DueCustomer["reason"];
    key: SQL;
    due: SQL;
    /** When the customer came due (over `walk_at` and `cfg.days`). */
    dueAt: SQL;
    at: SQL;
    limit: number;
  },
  after: ReminderCursor | null,
): Promise<ReminderBatch> {
  const from = after ?? START;
  const [row] = await queryRows<{
    taken: number;
    users: UserDue[] | null;
    at: string | null;
    id: string | null;
  }>(
    db,
    sql`with ${c} as (
        select ${c}.*, ${input.key} as walk_at from ${customers} ${c}
        where ${input.due}
          and (${input.key}, ${c.id}) > (${from.at}::timestamptz, ${from.id}::uuid)
        order by ${input.key}, ${c.id}
        limit ${input.limit}),
      ranked as (
        select ${c.userId} as user_id, jsonb_build_object(
            'customer_id', ${c.id}, 'customer_name', ${name}, 'reason', ${input.reason}::text,
            'since', walk_at,
            'overdue_ms', ${epochMs(input.at)} - ${epochMs(input.dueAt)},
            'overdue_days', (${input.at} at time zone 'UTC')::date
              - (${input.dueAt} at time zone 'UTC')::date) as item,
          row_number() over (partition by ${c.userId} order by walk_at, ${c.id}) as rn
        from ${c}, (select ${SILENCE_DAYS_SQL} as days) cfg
        -- A digest goes to the customer's holder; the pool's customers have none (they are
        -- still read and counted in taken, so a large pool cannot stretch a batch).
        where ${c.userId} is not null),
      per_user as (
        select user_id, count(*)::int as n,
          jsonb_agg(item order by rn) filter (where rn <= ${DIGEST_TOP}) as top
        from ranked group by user_id),
      last as (select walk_at::text as at, id::text as id from ${c} order by walk_at desc, id desc limit 1)
      select (select count(*)::int from ${c}) as taken,
        (select jsonb_agg(jsonb_build_object('user_id', user_id, 'n', n, 'top', top)) from per_user)
          as users,
        (select at from last) as at, (select id from last) as id`,
  );
  return {
    taken: row?.taken ?? 0,
    users: row?.users ?? [],
    next: row?.at && row.id ? { at: row.at, id: row.id } : null,
  };
}

const epochMs = (value: SQL) => sql`(extract(epoch from ${value}) * 1000)`;

/**
 * The next batch of customers silent past customers.silence_days (status not won or lost),
 * longest silent first (customers_reminder_silent_idx).
 */
export function silentBatch(
  db: Db,
  params: { now: string; limit: number; after: ReminderCursor | null },
): Promise<ReminderBatch> {
  const at = sql`${params.now}::timestamptz`;
  return dueBatch(
    db,
    {
      reason: "silent",
      key: since,
      due: sql`${c.status} not in ('won', 'lost')
        and ${since} < ${at} - make_interval(days => ${SILENCE_DAYS_SQL})`,
      dueAt: sql`(walk_at + make_interval(days => cfg.days))`,
      at,
      limit: params.limit,
    },
    params.after,
  );
}

/**
 * The next batch of customers whose next_followup_at has come (not lost or dormant: they have
 * no cadence), soonest first (customers_reminder_followup_idx).
 */
export function followupBatch(
  db: Db,
  params: { now: string; limit: number; after: ReminderCursor | null },
): Promise<ReminderBatch> {
  const at = sql`${params.now}::timestamptz`;
  return dueBatch(
    db,
    {
      reason: "followup_due",
      key: sql`${c.nextFollowupAt}`,
      due: sql`${c.nextFollowupAt} is not null and ${c.status} not in ('lost', 'dormant')
        and ${c.nextFollowupAt} <= ${at}`,
      dueAt: sql`walk_at`,
      at,
      limit: params.limit,
    },
    params.after,
  );
}

/** A digest as written: one per user and UTC day (dedupe_key `reminder_digest:<day>`). */
export interface DigestRow {
  user_id: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  dedupe_key: string;
}

/**
 * Writes a chunk of digests in one statement. The day's first run inserts (and so the push task
 * sends it once); a rerun the same day replaces title, body and data when its counts or names
 * differ (not when only `as_of` would) and leaves read state and push state alone (no second
 * push). A user deleted since the walk is
 * left out. Returns how many rows were new.
 */
export async function upsertDigests(
  db: Db,
  input: { rows: DigestRow[]; now: string },
): Promise<{ inserted: number; updated: number }> {
  if (input.rows.length === 0) return { inserted: 0, updated: 0 };
  const source = sql`select d.user_id, d.title, d.body, d.data, d.dedupe_key
    from jsonb_to_recordset(${JSON.stringify(input.rows)}::jsonb)
      as d(user_id uuid, title text, body text, data jsonb, dedupe_key text)
    where exists (select 1 from ${users} u where u.id = d.user_id)`;
  const rows = await queryRows<{ inserted: boolean }>(
    db,
    sql`${notificationInsert(
      "reminder_digest",
      source,
      input.now,
      // Only when the counts or the names changed: an hourly rerun over an unchanged backlog
      // rewrites no row.
      sql`do update set title = excluded.title, body = excluded.body, data = excluded.data
        where (${notifications.data} - 'as_of') is distinct from (excluded.data - 'as_of')`,
    )} returning (xmax = 0) as inserted`,
  );
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

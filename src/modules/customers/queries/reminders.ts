import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { customers } from "../../../db/schema";
import { notificationInsert } from "../../notifications/queries/insert";
import { SILENCE_DAYS_SQL } from "./index";

const c = alias(customers, "c");
const name = sql`coalesce(${c.company}, ${c.contactName}, ${c.email}, 'A customer')`;
const since = sql`coalesce(${c.lastContactAt}, ${c.createdAt})`;
const epochMs = (column: unknown) => sql`(extract(epoch from ${column}) * 1000)::bigint`;

/** Where a walk over due customers resumes: the (time, id) of the last one a batch took. */
export interface ReminderCursor {
  /** A timestamptz as PostgreSQL prints it (text keeps its microseconds; a Date would not). */
  at: string;
  id: string;
}

export interface ReminderBatch {
  /** Due customers the batch read; fewer than the limit means the walk is done. */
  taken: number;
  /** Notifications written (a customer notified before for the same episode writes none). */
  written: number;
  next: ReminderCursor | null;
}

const START: ReminderCursor = { at: "-infinity", id: "00000000-0000-0000-0000-000000000000" };

/**
 * One batch of a walk over due customers in `key` order: the next `limit` after `after`, read
 * from the index on (key, id) whose predicate `due` matches, notified by `source` (a select over
 * the batch as `c`). Each batch is its own statement, so the users' rows its notifications'
 * foreign keys lock are held for one short batch, not for the whole run.
 */
async function remindBatch(
  db: Db,
  input: { kind: string; key: SQL; due: SQL; source: SQL; now: string; limit: number },
  after: ReminderCursor | null,
): Promise<ReminderBatch> {
  const from = after ?? START;
  const [row] = await queryRows<{
    taken: number;
    written: number;
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
      written as (${notificationInsert(input.kind, input.source, input.now)} returning 1),
      last as (select walk_at::text as at, id::text as id from ${c} order by walk_at desc, id desc limit 1)
      select (select count(*)::int from ${c}) as taken, (select count(*)::int from written) as written,
        (select at from last) as at, (select id from last) as id`,
  );
  return {
    taken: row?.taken ?? 0,
    written: row?.written ?? 0,
    next: row?.at && row.id ? { at: row.at, id: row.id } : null,
  };
}

/**
 * Silence notifications for the next batch of customers silent past customers.silence_days
 * (status not won or lost), longest silent first (customers_reminder_silent_idx). See
 * notifyCustomerReminders in ../reminders.ts for the rules and dedupe keys.
 */
export function remindSilentBatch(
  db: Db,
  params: { now: string; limit: number; after: ReminderCursor | null },
): Promise<ReminderBatch> {
  const at = sql`${params.now}::timestamptz`;
  const source = sql`select ${c.userId},
      'Customer gone quiet: ' || ${name} as title,
      'No contact with ' || ${name} || ' for ' || cfg.days || ' days or more (since '
        || to_char(${since} at time zone 'UTC', 'YYYY-MM-DD')
        || ' UTC).' as body,
      jsonb_build_object('customer_id', ${c.id}, 'customer_name', ${name},
        'silent_since', ${since},
        'silence_days', cfg.days) as data,
      'customer_silent:' || ${c.id} || ':' || ${epochMs(since)}
        as dedupe_key
    from ${c}, (select ${SILENCE_DAYS_SQL} as days) cfg`;
  return remindBatch(
    db,
    {
      kind: "customer_silent",
      key: since,
      due: sql`${c.status} not in ('won', 'lost')
        and ${since} < ${at} - make_interval(days => ${SILENCE_DAYS_SQL})`,
      source,
      now: params.now,
      limit: params.limit,
    },
    params.after,
  );
}

/**
 * Follow-up notifications for the next batch of customers whose next_followup_at has come
 * (not lost or dormant: they have no cadence), soonest first (customers_reminder_followup_idx).
 */
export function remindFollowupsBatch(
  db: Db,
  params: { now: string; limit: number; after: ReminderCursor | null },
): Promise<ReminderBatch> {
  const at = sql`${params.now}::timestamptz`;
  const source = sql`select ${c.userId},
      'Follow-up due: ' || ${name} as title,
      'The follow-up with ' || ${name} || ' planned for '
        || to_char(${c.nextFollowupAt} at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC is due.'
        as body,
      jsonb_build_object('customer_id', ${c.id}, 'customer_name', ${name},
        'next_followup_at', ${c.nextFollowupAt}) as data,
      'followup_due:' || ${c.id} || ':' || ${epochMs(c.nextFollowupAt)} as dedupe_key
    from ${c}`;
  return remindBatch(
    db,
    {
      kind: "followup_due",
      key: sql`${c.nextFollowupAt}`,
      due: sql`${c.nextFollowupAt} is not null and ${c.status} not in ('lost', 'dormant')
        and ${c.nextFollowupAt} <= ${at}`,
      source,
      now: params.now,
      limit: params.limit,
    },
    params.after,
  );
}

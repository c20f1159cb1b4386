import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { customers } from "../../../db/schema";
import { notificationInsert } from "../../notifications/queries/insert";
import { SILENCE_DAYS_SQL } from "./index";

const c = alias(customers, "c");
const name = sql`coalesce(${c.company}, ${c.contactName}, ${c.email}, 'A customer')`;
const since = sql`coalesce(${c.lastContactAt}, ${c.createdAt})`;
const epochMs = (column: unknown) => sql`(extract(epoch from ${column}) * 1000)::bigint`;

/**
 * The silence and follow-up notifications of every user, written in one statement (see
 * notifyCustomerReminders in ../reminders.ts for the rules and dedupe keys).
 */
export async function insertCustomerReminders(
  db: Db,
  params: { now: string },
): Promise<{ silent: number; followups_due: number }> {
  const { now } = params;
  const at = sql`${now}::timestamptz`;
  const silent = sql`select ${c.userId},
      'Customer gone quiet: ' || ${name} as title,
      'No contact with ' || ${name} || ' for ' || cfg.days || ' days or more (since '
        || to_char(${since} at time zone 'UTC', 'YYYY-MM-DD')
        || ' UTC).' as body,
      jsonb_build_object('customer_id', ${c.id}, 'customer_name', ${name},
        'silent_since', ${since},
        'silence_days', cfg.days) as data,
      'customer_silent:' || ${c.id} || ':' || ${epochMs(since)}
        as dedupe_key
    from ${customers} ${c}, (select ${SILENCE_DAYS_SQL} as days) cfg
    where ${c.status} not in ('won', 'lost')
      and ${since} < ${at} - make_interval(days => cfg.days)`;
  const due = sql`select ${c.userId},
      'Follow-up due: ' || ${name} as title,
      'The follow-up with ' || ${name} || ' planned for '
        || to_char(${c.nextFollowupAt} at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC is due.'
        as body,
      jsonb_build_object('customer_id', ${c.id}, 'customer_name', ${name},
        'next_followup_at', ${c.nextFollowupAt}) as data,
      'followup_due:' || ${c.id} || ':' || ${epochMs(c.nextFollowupAt)} as dedupe_key
    from ${customers} ${c}
    where ${c.nextFollowupAt} <= ${at} and ${c.status} not in ('lost', 'dormant')`;
  const [row] = await queryRows<{ silent: number; followups_due: number }>(
    db,
    sql`with s as (${notificationInsert("customer_silent", silent, now)} returning 1),
        d as (${notificationInsert("followup_due", due, now)} returning 1)
        select (select count(*)::int from s) as silent, (select count(*)::int from d) as followups_due`,
  );
  return { silent: row?.silent ?? 0, followups_due: row?.followups_due ?? 0 };
}

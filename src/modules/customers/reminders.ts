import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { type PushCounts, pushPendingNotifications } from "../notifications/push";
import { notificationInsert } from "../notifications/service";
import { SILENCE_DAYS_SQL } from "./service";

const name = sql`coalesce(c.company, c.contact_name, c.email, 'A customer')`;
const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::bigint`);

/**
 * The silence and follow-up task, for every user in one statement each way. A notification
 * names its episode in the dedupe key, so a rerun (or two instances at once) writes nothing new:
 *   - silent:   `customer_silent:<customer id>:<ms of the contact (or creation) it is silent since>`;
 *     a new contact starts a new episode, which notifies again once it too goes silent.
 *   - followup: `followup_due:<customer id>:<ms of the next_followup_at that came due>`.
 * Silent: status not won or lost, and silent past customers.silence_days (system config).
 * Due: next_followup_at has come and the customer is not lost or dormant (they have no cadence).
 * Then pending notifications (these and any other task's) are pushed through WeChat where the
 * user has it (src/modules/notifications/push.ts); `pushed` is absent when pushing is off.
 */
export async function notifyCustomerReminders(
  deps: Deps,
): Promise<{ silent: number; followups_due: number; pushed?: PushCounts }> {
  const now = deps.clock.now().toISOString();
  const at = sql`${now}::timestamptz`;
  const silent = sql`select c.user_id,
      'Customer gone quiet: ' || ${name} as title,
      'No contact with ' || ${name} || ' for ' || cfg.days || ' days or more (since '
        || to_char(coalesce(c.last_contact_at, c.created_at) at time zone 'UTC', 'YYYY-MM-DD')
        || ' UTC).' as body,
      jsonb_build_object('customer_id', c.id, 'customer_name', ${name},
        'silent_since', coalesce(c.last_contact_at, c.created_at),
        'silence_days', cfg.days) as data,
      'customer_silent:' || c.id || ':' || ${epochMs("coalesce(c.last_contact_at, c.created_at)")}
        as dedupe_key
    from customers c, (select ${SILENCE_DAYS_SQL} as days) cfg
    where c.status not in ('won', 'lost')
      and coalesce(c.last_contact_at, c.created_at) < ${at} - make_interval(days => cfg.days)`;
  const due = sql`select c.user_id,
      'Follow-up due: ' || ${name} as title,
      'The follow-up with ' || ${name} || ' planned for '
        || to_char(c.next_followup_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC is due.'
        as body,
      jsonb_build_object('customer_id', c.id, 'customer_name', ${name},
        'next_followup_at', c.next_followup_at) as data,
      'followup_due:' || c.id || ':' || ${epochMs("c.next_followup_at")} as dedupe_key
    from customers c
    where c.next_followup_at <= ${at} and c.status not in ('lost', 'dormant')`;
  const [row] = await queryRows<{ silent: number; followups_due: number }>(
    deps.db,
    sql`with s as (${notificationInsert("customer_silent", silent, now)} returning 1),
        d as (${notificationInsert("followup_due", due, now)} returning 1)
        select (select count(*)::int from s) as silent, (select count(*)::int from d) as followups_due`,
  );
  const written = { silent: row?.silent ?? 0, followups_due: row?.followups_due ?? 0 };
  // After the insert has committed, so a failed push never loses a notification.
  const pushed = await pushPendingNotifications(deps);
  return pushed ? { ...written, pushed } : written;
}

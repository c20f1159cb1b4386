import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { iso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";

export interface NotificationInput {
  userId: string;
  /** trial_ended, subscription_ended, referral_rewarded, certification_approved, ... */
  kind: string;
  title: string;
  body: string;
  data?: Record<string, unknown>;
  /** One notification per (user, dedupe key): a repeat of the same episode is dropped. */
  dedupeKey?: string;
}

/** Writes a notification; with a dedupe key, only the first of an episode is stored. */
export async function notify(deps: Deps, input: NotificationInput): Promise<{ created: boolean }> {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into notifications (user_id, kind, title, body, data, dedupe_key, created_at)
        values (${input.userId}, ${input.kind}, ${input.title}, ${input.body},
                ${input.data ? JSON.stringify(input.data) : null}::jsonb, ${input.dedupeKey ?? null},
                ${deps.clock.now().toISOString()}::timestamptz)
        on conflict (user_id, dedupe_key) do nothing
        returning id`,
  );
  return { created: rows.length > 0 };
}

/**
 * The same insert as a CTE body over a row source, for statements that change something and
 * notify about it atomically. `source` must yield columns user_id, title, body, data (jsonb)
 * and dedupe_key; `kind` is fixed.
 */
export function notificationInsert(kind: string, source: SQL, now: string): SQL {
  return sql`insert into notifications (user_id, kind, title, body, data, dedupe_key, created_at)
    select n.user_id, ${kind}, n.title, n.body, n.data, n.dedupe_key, ${now}::timestamptz
    from (${source}) n
    on conflict (user_id, dedupe_key) do nothing`;
}

interface NotificationRow {
  id: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown> | null;
  is_read: boolean;
  read_at: Date | null;
  created_at: Date;
}

const unreadCount = (userId: string) =>
  sql`(select count(*)::int from notifications where user_id = ${userId} and not is_read)`;

export async function listNotifications(
  deps: Deps,
  query: { userId: string; page: number; size: number; is_read?: boolean },
) {
  const filters: SQL[] = [sql`user_id = ${query.userId}`];
  if (query.is_read !== undefined) filters.push(sql`is_read = ${query.is_read}`);
  const where = sql.join(filters, sql` and `);
  const [rows, [counts]] = await Promise.all([
    queryRows<NotificationRow>(
      deps.db,
      sql`select id, kind, title, body, data, is_read, read_at, created_at from notifications
          where ${where} order by created_at desc, id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ total: number; unread: number }>(
      deps.db,
      sql`select (select count(*)::int from notifications where ${where}) as total,
            ${unreadCount(query.userId)} as unread`,
    ),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      read_at: iso(r.read_at),
      created_at: iso(r.created_at)!,
    })),
    total: counts?.total ?? 0,
    unread: counts?.unread ?? 0,
    page: query.page,
    size: query.size,
  };
}

/** Marks the caller's own notifications among `ids`; other users' ids are silently skipped. */
export async function markNotifications(
  deps: Deps,
  input: { userId: string; ids: string[]; isRead: boolean },
) {
  const now = deps.clock.now().toISOString();
  const ids = sql.join(
    input.ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [row] = await queryRows<{ updated: number; unread: number }>(
    deps.db,
    sql`with changed as (
        update notifications
        set is_read = ${input.isRead},
            read_at = case when ${input.isRead} then coalesce(read_at, ${now}::timestamptz) end
        where user_id = ${input.userId} and id in (${ids}) and is_read <> ${input.isRead}
        returning id, is_read)
      select (select count(*)::int from changed) as updated,
        (${unreadCount(input.userId)}
          - (select count(*)::int from changed where is_read)
          + (select count(*)::int from changed where not is_read)) as unread`,
  );
  return { updated: row?.updated ?? 0, unread: row?.unread ?? 0 };
}

export async function markAllRead(deps: Deps, userId: string) {
  const now = deps.clock.now().toISOString();
  const [row] = await queryRows<{ updated: number }>(
    deps.db,
    sql`with changed as (
        update notifications set is_read = true, read_at = ${now}::timestamptz
        where user_id = ${userId} and not is_read returning id)
      select count(*)::int as updated from changed`,
  );
  return { updated: row?.updated ?? 0, unread: 0 };
}

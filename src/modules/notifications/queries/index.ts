import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import { notifications, users } from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";
import { type NotificationInput, notificationInsert } from "./insert";

const n = notifications;

/** A notification as the list shows it. */
export type NotificationRow = Pick<
  DbRow<typeof notifications>,
  "id" | "kind" | "title" | "body" | "data" | "is_read" | "read_at" | "created_at"
>;

/** Writes one notification; none when its dedupe key was already used by this user. */
export async function insertNotification(
  db: Db,
  { input, now }: { input: NotificationInput; now: string },
): Promise<{ created: boolean }> {
  const rows = await queryRows<Pick<DbRow<typeof notifications>, "id">>(
    db,
    sql`${notificationInsert(
      input.kind,
      sql`select ${input.userId}::uuid as user_id, ${input.title}::text as title,
        ${input.body}::text as body, ${input.data ? JSON.stringify(input.data) : null}::jsonb as data,
        ${input.dedupeKey ?? null}::text as dedupe_key`,
      now,
    )} returning ${col(n.id)}`,
  );
  return { created: rows.length > 0 };
}

const unreadCount = (userId: string) =>
  sql`(select count(*)::int from ${n} where ${n.userId} = ${userId} and not ${n.isRead})`;

/** A page of a user's notifications, newest first, and their unread count. */
export async function listNotifications(
  db: Db,
  query: { userId: string; page: number; size: number; isRead?: boolean },
) {
  const filters: SQL[] = [sql`${n.userId} = ${query.userId}`];
  if (query.isRead !== undefined) filters.push(sql`${n.isRead} = ${query.isRead}`);
  const [page, [counts]] = await Promise.all([
    selectPage<NotificationRow>(db, {
      columns: sql`${n.id}, ${n.kind}, ${n.title}, ${n.body}, ${n.data}, ${n.isRead},
        ${n.readAt}, ${n.createdAt}`,
      from: sql`${n}`,
      where: sql.join(filters, sql` and `),
      order: sql`${n.createdAt} desc, ${n.id} desc`,
      page: query.page,
      size: query.size,
    }),
    queryRows<{ unread: number }>(db, sql`select ${unreadCount(query.userId)} as unread`),
  ]);
  return { ...page, unread: counts?.unread ?? 0 };
}

/** Marks the user's own notifications among `ids`; returns how many changed and the unread. */
export async function markNotifications(
  db: Db,
  input: { userId: string; ids: string[]; isRead: boolean; now: string },
) {
  const ids = sql.join(
    input.ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [row] = await queryRows<{ updated: number; unread: number }>(
    db,
    sql`with changed as (
        update ${n}
        set ${col(n.isRead)} = ${input.isRead},
            ${col(n.readAt)} = case when ${input.isRead}
              then coalesce(${n.readAt}, ${input.now}::timestamptz) end
        where ${n.userId} = ${input.userId} and ${n.id} in (${ids})
          and ${n.isRead} <> ${input.isRead}
        returning ${n.id}, ${n.isRead})
      select (select count(*)::int from changed) as updated,
        (${unreadCount(input.userId)}
          - (select count(*)::int from changed where is_read)
          + (select count(*)::int from changed where not is_read)) as unread`,
  );
  return { updated: row?.updated ?? 0, unread: row?.unread ?? 0 };
}

/** Marks every unread notification of the user read. */
export async function markAllRead(db: Db, { userId, now }: { userId: string; now: string }) {
  const [row] = await queryRows<{ updated: number }>(
    db,
    sql`with changed as (
        update ${n} set ${col(n.isRead)} = true, ${col(n.readAt)} = ${now}::timestamptz
        where ${n.userId} = ${userId} and not ${n.isRead} returning ${n.id})
      select count(*)::int as updated from changed`,
  );
  return row?.updated ?? 0;
}

// --- Push (see ./push.ts) ---

const pn = alias(notifications, "n");
const pu = alias(users, "u");

const pushDue = (at: SQL) =>
  sql`${pn.pushState} in ('pending', 'sending')
    and (${pn.pushState} = 'pending' or ${pn.pushClaimedUntil} < ${at})`;

/**
 * Marks skipped the due notifications older than `staleBefore` and, with `channelCheck`, those
 * whose user has no WeChat channel or is not active. Returns how many.
 */
export async function skipUnpushable(
  db: Db,
  { at, staleBefore, channelCheck }: { at: SQL; staleBefore: SQL; channelCheck: boolean },
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with due as (
        select ${pn.id},
          case when ${pn.createdAt} < ${staleBefore} then 'stale'
               when ${pu.wechatOpenid} is null then 'no_channel'
               else 'user_disabled' end as why
        from ${notifications} ${pn} join ${users} ${pu} on ${pu.id} = ${pn.userId}
        where ${pushDue(at)}
          and (${pn.createdAt} < ${staleBefore}
               or (${channelCheck}::boolean
                   and (${pu.wechatOpenid} is null or ${pu.status} <> 'active')))
        for update of n skip locked),
      skipped as (
        update ${notifications} ${pn}
        set ${col(pn.pushState)} = 'skipped', ${col(pn.pushClaimedUntil)} = null,
          ${col(pn.pushError)} = due.why
        from due where ${pn.id} = due.id returning 1)
      select count(*)::int as n from skipped`,
  );
  return row?.n ?? 0;
}

/** A notification claimed for a push, with its recipient's openid. */
export type ClaimedRow = Pick<
  DbRow<typeof notifications>,
  "id" | "title" | "body" | "data" | "created_at"
> & {
  attempts: number;
  openid: string;
};

/** Claims up to `limit` due notifications of reachable users until `leaseUntil`, oldest first. */
export async function claimPushBatch(
  db: Db,
  p: { at: SQL; staleBefore: SQL; leaseUntil: string; limit: number },
): Promise<ClaimedRow[]> {
  const c = alias(users, "cu");
  return queryRows<ClaimedRow>(
    db,
    sql`with due as (
        select ${pn.id} from ${notifications} ${pn} join ${users} ${pu} on ${pu.id} = ${pn.userId}
        where ${pushDue(p.at)} and ${pn.createdAt} >= ${p.staleBefore}
          and ${pu.wechatOpenid} is not null and ${pu.status} = 'active'
        order by ${pn.createdAt}, ${pn.id}
        limit ${p.limit}
        for update of n skip locked),
      claimed as (
        update ${notifications} ${pn}
        set ${col(pn.pushState)} = 'sending',
            ${col(pn.pushClaimedUntil)} = ${p.leaseUntil}::timestamptz,
            ${col(pn.pushAttempts)} = ${pn.pushAttempts} + 1
        from due where ${pn.id} = due.id
        returning ${pn.id}, ${pn.userId}, ${pn.title}, ${pn.body}, ${pn.data}, ${pn.createdAt},
          ${pn.pushAttempts})
      select claimed.id, claimed.title, claimed.body, claimed.data, claimed.created_at,
        claimed.push_attempts as attempts, ${c.wechatOpenid} as openid
      from claimed join ${users} ${c} on ${c.id} = claimed.user_id
      order by claimed.created_at, claimed.id`,
  );
}

/** Records a push outcome, only if the row still holds the claim (state and attempt number). */
export async function settlePush(
  db: Db,
  p: {
    id: string;
    attempts: number;
    state: "sent" | "pending" | "failed";
    pushedAt: string | null;
    error: string | null;
    refund: number;
  },
): Promise<void> {
  await db.execute(
    sql`update ${n}
        set ${col(n.pushState)} = ${p.state}, ${col(n.pushClaimedUntil)} = null,
            ${col(n.pushedAt)} = ${p.pushedAt}::timestamptz, ${col(n.pushError)} = ${p.error},
            ${col(n.pushAttempts)} = ${n.pushAttempts} - ${p.refund}
        where ${n.id} = ${p.id} and ${n.pushState} = 'sending'
          and ${n.pushAttempts} = ${p.attempts}`,
  );
}

import { type Column, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { defineCte } from "../../../db/cte";
import { selectPage } from "../../../db/page";
import {
  adminAuditLog,
  creditLedger,
  orgCredits,
  orgMembers,
  orgs,
  paymentTransactions,
  usageLogs,
  userCredits,
  users,
} from "../../../db/schema";
import type { DbRow } from "../../../db/sql";
import { aiCallsByProviderJson } from "../../ai/queries";
import { revokeTokensCte } from "../../auth/queries";
import { CREDIT_OPERATIONS } from "../../credits/service";
import {
  type AdminUserPatch,
  adminGrantedUser,
  adminGrantedUserCte,
  adminPatchedUser,
  adminPatchedUserCte,
} from "../../users/queries";
import { type Actor, auditCte } from "./audit";
import { type AdminUserOrgRow, userOrgColumnsSql, userOrgJoinSql } from "./users";

/** patchUser's revocation of a disabled user's refresh tokens. */
const revokedTokens = defineCte("revoked");

/**
 * An admin's change of a user, its audit row, and (disabling) the revocation of the user's
 * refresh tokens, in one statement. Undefined: no such user.
 */
export async function patchUser(
  db: Db,
  p: { actor: Actor; id: string; patch: AdminUserPatch; fields: string[]; now: string },
) {
  const [row] = await queryRows<AdminUserOrgRow>(
    db,
    sql`with ${adminPatchedUserCte(p)},
      ${auditCte(p.actor, {
        action: "user.update",
        target: "user",
        rows: adminPatchedUser,
        kind: "update",
        fields: p.fields,
      })},
      ${revokeTokensCte(
        revokedTokens,
        sql`(select ${adminPatchedUser.col("id")} from ${adminPatchedUser}
             where ${adminPatchedUser.col("status")} = 'disabled')`,
        sql`now()`,
      )}
      select ${adminPatchedUser.all}, ${userCredits.balance} as credits, ${userOrgColumnsSql}
      from ${adminPatchedUser}
      left join ${userCredits} on ${userCredits.userId} = ${adminPatchedUser.col("id")}
      ${userOrgJoinSql(adminPatchedUser.col("id"))}`,
  );
  return row;
}

/**
 * `npm run admin:grant`: the admin role for the account with e-mail `email`, with its audit row
 * (no actor, request id `cli`) in the same statement. Undefined: no such account.
 */
export async function grantAdminRole(db: Db, { email }: { email: string }) {
  const [row] = await queryRows<Pick<DbRow<typeof users>, "id">>(
    db,
    sql`with ${adminGrantedUserCte(email)},
      ${auditCte(
        { id: null, ip: null, requestId: "cli" },
        {
          action: "user.role_grant",
          target: "user",
          rows: adminGrantedUser,
          kind: "custom",
          before: sql`jsonb_build_object('role', r.role_before)`,
          after: sql`jsonb_build_object('role', 'admin')`,
          fields: ["role"],
        },
      )}
      select ${adminGrantedUser.col("id")} as id from ${adminGrantedUser}`,
  );
  return row;
}

/** An audit row as the admin list shows it, with the actor's e-mail. */
type AuditLogRow = Pick<
  DbRow<typeof adminAuditLog>,
  | "id"
  | "actor_id"
  | "action"
  | "target_type"
  | "target_id"
  | "changes"
  | "request_id"
  | "client_request_id"
  | "ip"
  | "created_at"
> & { actor_email: DbRow<typeof users>["email"] };

/**
 * Admin writes, newest first, filtered by actor, action, target and UTC days; each filter has an
 * index that leads with it and ends with created_at. The actor's e-mail is read for the page's
 * rows only.
 */
export function listAuditLogPage(
  db: Db,
  query: {
    page: number;
    size: number;
    actorId?: string;
    action?: string;
    targetType?: string;
    targetId?: string;
    startDate?: string;
    endDate?: string;
  },
) {
  const a = alias(adminAuditLog, "a");
  const u = alias(users, "u");
  const filters: SQL[] = [sql`true`];
  if (query.actorId) filters.push(sql`${a.actorId} = ${query.actorId}`);
  if (query.action) filters.push(sql`${a.action} = ${query.action}`);
  if (query.targetType) filters.push(sql`${a.targetType} = ${query.targetType}`);
  if (query.targetId) filters.push(sql`${a.targetId} = ${query.targetId}`);
  if (query.startDate) {
    filters.push(sql`${a.createdAt} >= (${query.startDate}::date)::timestamp at time zone 'UTC'`);
  }
  if (query.endDate) {
    filters.push(sql`${a.createdAt} < (${query.endDate}::date + 1)::timestamp at time zone 'UTC'`);
  }
  return selectPage<AuditLogRow>(db, {
    columns: sql`${a.id}, ${a.actorId}, (select ${u.email} from ${users} ${u} where ${u.id} = ${a.actorId})
      as actor_email, ${a.action}, ${a.targetType}, ${a.targetId}, ${a.changes}, ${a.requestId},
      ${a.clientRequestId}, ${a.ip}, ${a.createdAt}`,
    from: sql`${adminAuditLog} ${a}`,
    where: sql.join(filters, sql` and `),
    order: sql`${a.createdAt} desc, ${a.id} desc`,
    page: query.page,
    size: query.size,
  });
}

const operations = sql.raw(`(${CREDIT_OPERATIONS.map((op) => `'${op}'`).join(", ")})`);

/**
 * The admin dashboard's figures for a UTC day range as one jsonb value (see ./stats.ts): each
 * source is aggregated once over its created_at index, then joined to the day series.
 */
export async function adminStatsJson(db: Db, range: { start: string; end: string }) {
  const from = sql`(${range.start}::date)::timestamp at time zone 'UTC'`;
  const until = sql`(${range.end}::date + 1)::timestamp at time zone 'UTC'`;
  const dayOf = (column: Column) => sql`(${column} at time zone 'UTC')::date`;
  const inRange = (column: Column) => sql`${column} >= ${from} and ${column} < ${until}`;
  const pt = paymentTransactions;
  const cl = creditLedger;
  const ul = usageLogs;
  const [row] = await queryRows<{ stats: unknown }>(
    db,
    sql`with days as (
        select d::date as day
        from generate_series(${range.start}::date, ${range.end}::date, interval '1 day') d),
      signups as (
        select ${dayOf(users.createdAt)} as day, count(*)::int as n from ${users}
        where ${inRange(users.createdAt)} and not ${users.isGuest} group by 1),
      revenue as (
        select day, jsonb_object_agg(currency, amount) as by_currency from (
          select ${dayOf(pt.createdAt)} as day, ${pt.currency} as currency,
            sum(${pt.amount} - ${pt.refundedAmount})::bigint as amount
          from ${pt}
          where ${pt.status} in ('paid', 'refunded', 'partially_refunded')
            and ${inRange(pt.createdAt)}
          group by 1, 2) r group by day),
      ledger as (
        select ${dayOf(cl.createdAt)} as day,
          coalesce(sum(${cl.delta}) filter (where ${cl.delta} > 0 and ${cl.kind} <> 'refund'), 0)::bigint as granted,
          coalesce(-sum(${cl.delta}) filter (where ${cl.kind} in ('consumption', 'refund')), 0)::bigint as consumed,
          coalesce(-sum(${cl.delta}) filter (where ${cl.kind} = 'expiry'), 0)::bigint as expired
        from ${cl} where ${inRange(cl.createdAt)} group by 1),
      calls as (
        select ${dayOf(ul.createdAt)} as day, ${ul.event} as event, count(*)::int as n from ${ul}
        where ${ul.event} in ${operations} and ${inRange(ul.createdAt)}
        group by 1, 2),
      per_day as (
        select d.day, coalesce(s.n, 0) as new_users, coalesce(r.by_currency, '{}'::jsonb) as revenue,
          coalesce(l.granted, 0) as granted, coalesce(l.consumed, 0) as consumed,
          coalesce(l.expired, 0) as expired,
          coalesce((select sum(n) from calls c where c.day = d.day), 0)::int as ai_calls
        from days d left join signups s using (day) left join revenue r using (day)
          left join ledger l using (day))
      select jsonb_build_object(
        'start_date', ${range.start}::text, 'end_date', ${range.end}::text,
        'totals', jsonb_build_object(
          'users', (select count(*) from ${users} where not ${users.isGuest}),
          'guests', (select count(*) from ${users} where ${users.isGuest}),
          'paid_plan_users', (select count(*) from ${users}
            join ${orgMembers} on ${orgMembers.userId} = ${users.id}
            join ${orgs} on ${orgs.id} = ${orgMembers.orgId}
            where ${orgs.plan} <> 'free' and not ${users.isGuest}),
          'new_users', (select coalesce(sum(new_users), 0) from per_day),
          'revenue', coalesce((select jsonb_object_agg(currency, amount) from (
              select key as currency, sum(value::bigint) as amount
              from per_day, jsonb_each_text(revenue) group by key) t), '{}'::jsonb),
          'credits_granted', (select coalesce(sum(granted), 0) from per_day),
          'credits_consumed', (select coalesce(sum(consumed), 0) from per_day),
          'credits_expired', (select coalesce(sum(expired), 0) from per_day),
          'credits_outstanding', (select coalesce(sum(${orgCredits.balance}), 0) from ${orgCredits}),
          'ai_calls', (select coalesce(sum(n), 0) from calls),
          'ai_calls_by_operation', coalesce((select jsonb_object_agg(event, n) from (
              select event, sum(n)::int as n from calls group by event) t), '{}'::jsonb)),
        'by_day', coalesce((select jsonb_agg(jsonb_build_object(
            'date', to_char(day, 'YYYY-MM-DD'), 'new_users', new_users, 'revenue', revenue,
            'credits_granted', granted, 'credits_consumed', consumed, 'ai_calls', ai_calls)
            order by day) from per_day), '[]'::jsonb),
        'ai_providers', ${aiCallsByProviderJson({ from, until })}) as stats`,
  );
  return row!.stats;
}

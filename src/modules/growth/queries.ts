import { type SQL, sql } from "drizzle-orm";
import { alias as aliasOf } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/client";
import type { Cte } from "../../db/cte";
import { selectPage } from "../../db/page";
import {
  certifications,
  invoices,
  notifications,
  paymentTransactions,
  referralRewards,
  subscriptions,
  systemConfig,
  users,
} from "../../db/schema";
import { col, columnList, columnNames, type DbRow } from "../../db/sql";
import { type Actor, auditCte, lockBefore } from "../admin/queries/audit";
import { notificationInsert } from "../notifications/queries/insert";
import { planExtensionUpdate } from "../orgs/queries/plan";
import { referralSubscriptionInsert } from "../payments/queries";

/**
 * Every statement on the growth tables (certifications, invoices, referral_rewards). The
 * referral fragments (end of file) are embedded by the account verification's statement.
 */

const c = certifications;
const i = invoices;

// ---- certifications ----

export type CertificationRow = Pick<
  DbRow<typeof certifications>,
  | "id"
  | "user_id"
  | "company_name"
  | "license_no"
  | "contact_name"
  | "contact_phone"
  | "status"
  | "reject_reason"
  | "reviewed_at"
  | "created_at"
  | "updated_at"
>;

/** What a submission writes (with its times). */
const CERTIFICATION_SUBMITTED = [
  c.userId,
  c.companyName,
  c.licenseNo,
  c.contactName,
  c.contactPhone,
  c.status,
];

const CERTIFICATION_COLUMNS = columnList([
  c.id,
  ...CERTIFICATION_SUBMITTED,
  c.rejectReason,
  c.reviewedAt,
  c.createdAt,
  c.updatedAt,
]);

/**
 * One certification per user, in one statement: a first submission is inserted; one after a
 * rejection replaces the details and goes back to pending. No row (`id` null) while pending or
 * approved; `is_guest` null when the user does not exist.
 */
export async function upsertCertification(
  db: Db,
  params: {
    userId: string;
    companyName: string;
    licenseNo: string;
    contactName: string;
    contactPhone: string;
    now: string;
  },
) {
  const [row] = await queryRows<NullFields<CertificationRow> & { is_guest: boolean | null }>(
    db,
    sql`with caller as (select ${users.id}, ${users.isGuest} from ${users} where ${users.id} = ${params.userId}),
      saved as (
        insert into ${c} (${columnNames([...CERTIFICATION_SUBMITTED, c.createdAt, c.updatedAt])})
        select id, ${params.companyName}, ${params.licenseNo}, ${params.contactName},
               ${params.contactPhone}, 'pending', ${params.now}::timestamptz, ${params.now}::timestamptz
        from caller where not is_guest
        on conflict (${col(c.userId)}) do update set
          ${col(c.companyName)} = excluded.${col(c.companyName)},
          ${col(c.licenseNo)} = excluded.${col(c.licenseNo)},
          ${col(c.contactName)} = excluded.${col(c.contactName)},
          ${col(c.contactPhone)} = excluded.${col(c.contactPhone)},
          ${col(c.status)} = 'pending', ${col(c.rejectReason)} = null,
          ${col(c.reviewedBy)} = null, ${col(c.reviewedAt)} = null,
          ${col(c.updatedAt)} = excluded.${col(c.updatedAt)}
        where ${c.status} = 'rejected'
        returning ${CERTIFICATION_COLUMNS})
      select s.*, (select is_guest from caller) as is_guest
      from (select 1) one left join saved s on true`,
  );
  return row;
}

export async function getUserCertification(
  db: Db,
  params: { userId: string },
): Promise<CertificationRow | undefined> {
  const [row] = await queryRows<CertificationRow>(
    db,
    sql`select ${CERTIFICATION_COLUMNS} from ${c} where ${c.userId} = ${params.userId}`,
  );
  return row;
}

/** Certifications, most recently changed first, with the owner's email. */
export function listCertifications(
  db: Db,
  params: { page: number; size: number; status?: CertificationRow["status"] },
) {
  return selectPage<
    CertificationRow &
      Pick<DbRow<typeof certifications>, "reviewed_by"> &
      Pick<DbRow<typeof users>, "email">
  >(db, {
    columns: sql`${CERTIFICATION_COLUMNS}, ${c.reviewedBy}, ${users.email}`,
    from: sql`${c} join ${users} on ${users.id} = ${c.userId}`,
    where: params.status ? sql`${c.status} = ${params.status}` : sql`true`,
    order: sql`${c.updatedAt} desc, ${c.id} desc`,
    page: params.page,
    size: params.size,
  });
}

/**
 * Approves or rejects a pending certification, notifies its owner and writes the audit row, in
 * one statement. `found` is false for an unknown id; the row is null unless it was pending.
 */
export async function reviewCertification(
  db: Db,
  actor: Actor,
  params: {
    id: string;
    decision: "approved" | "rejected";
    reason: string | null;
    notice: { kind: string; title: string; body: string };
    now: string;
  },
) {
  const { kind, title, body } = params.notice;
  const approved = params.decision === "approved";
  const old = lockBefore(certifications, params.id);
  const [row] = await queryRows<NullFields<CertificationRow> & { found: boolean }>(
    db,
    sql`with reviewed as (
        update ${c} set ${col(c.status)} = ${params.decision},
          ${col(c.rejectReason)} = ${params.reason},
          ${col(c.reviewedBy)} = ${actor.id}, ${col(c.reviewedAt)} = ${params.now}::timestamptz,
          ${col(c.updatedAt)} = ${params.now}::timestamptz
        from ${old.from}
        where ${old.where} and ${c.status} = 'pending'
        returning ${CERTIFICATION_COLUMNS}, audit_old.audit_before),
      ${auditCte(actor, {
        action: approved ? "certification.approve" : "certification.reject",
        target: "certification",
        rows: sql`reviewed`,
        kind: "update",
        fields: ["status", "reject_reason"],
      })},
      notice as (${notificationInsert(
        kind,
        sql`select user_id, ${title}::text as title, ${body}::text as body,
              jsonb_build_object('certification_id', id, 'status', status) as data,
              ${kind} || ':' || id || ':' || ${params.now}::text as dedupe_key
            from reviewed`,
        params.now,
      )})
      select r.*, exists (select 1 from ${c} where ${c.id} = ${params.id}) as found
      from (select 1) one left join reviewed r on true`,
  );
  return row;
}

// ---- invoices ----

export type InvoiceRow = Pick<
  DbRow<typeof invoices>,
  | "id"
  | "user_id"
  | "order_no"
  | "title"
  | "tax_number"
  | "email"
  | "amount"
  | "currency"
  | "status"
  | "invoice_number"
  | "issued_at"
  | "created_at"
>;

/** What a request writes (with its time). */
const INVOICE_REQUESTED = [
  i.userId,
  i.orderNo,
  i.title,
  i.taxNumber,
  i.email,
  i.amount,
  i.currency,
];

const INVOICE_COLUMNS = columnList([
  i.id,
  ...INVOICE_REQUESTED,
  i.status,
  i.invoiceNumber,
  i.issuedAt,
  i.createdAt,
]);

/** Order states with money kept: the invoice is for the amount less refunds. */
const PAID = sql`('paid', 'partially_refunded')`;

/**
 * Inserts an invoice for the user's own paid order, in one statement. `order_status` is null
 * when the order is not the user's; the row is null when the order is unpaid, fully refunded or
 * already invoiced (`taken`).
 */
export async function insertInvoice(
  db: Db,
  params: {
    userId: string;
    orderNo: string;
    title: string;
    taxNumber: string;
    email: string;
    now: string;
  },
) {
  const t = paymentTransactions;
  const [row] = await queryRows<
    NullFields<InvoiceRow> & { order_status: string | null; taken: boolean }
  >(
    db,
    sql`with o as (
        select ${t.orderNo}, ${t.userId}, ${t.status}, ${t.amount} - ${t.refundedAmount} as due,
          ${t.currency}
        from ${t} where ${t.orderNo} = ${params.orderNo} and ${t.userId} = ${params.userId}),
      created as (
        insert into ${i} (${columnNames([...INVOICE_REQUESTED, i.createdAt])})
        select o.user_id, o.order_no, ${params.title}, ${params.taxNumber}, ${params.email}, o.due,
               o.currency, ${params.now}::timestamptz
        from o where o.status in ${PAID} and o.due > 0
        on conflict (${col(i.orderNo)}) do nothing
        returning ${INVOICE_COLUMNS})
      select c.*, (select status from o) as order_status,
        exists (select 1 from ${i} where ${i.orderNo} = ${params.orderNo}) as taken
      from (select 1) one left join created c on true`,
  );
  return row;
}

/** Invoices newest first, with the owner's email (`user_email`). */
export function listInvoices(
  db: Db,
  params: { page: number; size: number; userId?: string; status?: InvoiceRow["status"] },
) {
  const filters: SQL[] = [sql`true`];
  if (params.userId) filters.push(sql`${i.userId} = ${params.userId}`);
  if (params.status) filters.push(sql`${i.status} = ${params.status}`);
  return selectPage<InvoiceRow & { user_email: DbRow<typeof users>["email"] }>(db, {
    columns: sql`${INVOICE_COLUMNS}, ${users.email} as user_email`,
    from: sql`${i} join ${users} on ${users.id} = ${i.userId}`,
    where: sql.join(filters, sql` and `),
    order: sql`${i.createdAt} desc, ${i.id} desc`,
    page: params.page,
    size: params.size,
  });
}

/**
 * Marks a requested invoice issued with its number, notifies the user and writes the audit row,
 * in one statement. `found` is false for an unknown id; the row is null unless it was requested.
 */
export async function issueInvoice(
  db: Db,
  actor: Actor,
  params: { id: string; invoiceNumber: string; now: string },
) {
  const old = lockBefore(invoices, params.id);
  const [row] = await queryRows<NullFields<InvoiceRow> & { found: boolean }>(
    db,
    sql`with issued as (
        update ${i} set ${col(i.status)} = 'issued', ${col(i.invoiceNumber)} = ${params.invoiceNumber},
          ${col(i.issuedBy)} = ${actor.id}, ${col(i.issuedAt)} = ${params.now}::timestamptz
        from ${old.from}
        where ${old.where} and ${i.status} = 'requested'
        returning ${INVOICE_COLUMNS}, audit_old.audit_before),
      ${auditCte(actor, {
        action: "invoice.issue",
        target: "invoice",
        rows: sql`issued`,
        kind: "update",
        fields: ["status", "invoice_number"],
      })},
      notice as (${notificationInsert(
        "invoice_issued",
        sql`select user_id, 'Invoice issued'::text as title,
              'Invoice ' || invoice_number || ' for order ' || order_no || ' was issued and sent to '
                || email || '.' as body,
              jsonb_build_object('invoice_id', id, 'order_no', order_no,
                                 'invoice_number', invoice_number) as data,
              'invoice_issued:' || id as dedupe_key
            from issued`,
        params.now,
      )})
      select x.*, exists (select 1 from ${i} where ${i.id} = ${params.id}) as found
      from (select 1) one left join issued x on true`,
  );
  return row;
}

/** A row read through `left join ... on true`: every column may be null (no row written). */
type NullFields<T> = { [K in keyof T]: T[K] | null };

// ---- referrals ----

/** The paid tier a referral reward gives a free user (the trial's tier). */
const REFERRAL_PLAN = "pro";

const configInt = (key: string, fallback: number) =>
  sql`greatest(coalesce(
  (select (${systemConfig.value} #>> '{}')::int from ${systemConfig}
   where ${systemConfig.key} = ${key}), ${sql.raw(String(fallback))}), 0)`;

/** `referral.reward_days` (system config), read inside the statement that uses it. */
const rewardDaysSql = configInt("referral.reward_days", 7);

/** `referral.monthly_cap` (system config): rewards one referrer can earn per calendar month. */
const monthlyCapSql = configInt("referral.monthly_cap", 5);

/**
 * Whether the users row `alias` earns the referred party's reward when it verifies its address
 * for the first time: referred by an active non-guest account other than itself, a reward of
 * more than 0 days, and never rewarded before.
 */
function referredEligible(alias: string): SQL {
  const a = sql.raw(alias);
  const referredBy = sql`${a}.${col(users.referredBy)}`;
  const id = sql`${a}.${col(users.id)}`;
  const r = aliasOf(users, "r");
  const x = aliasOf(referralRewards, "x");
  return sql`(${referredBy} is not null and ${referredBy} <> ${id}
    and exists (select 1 from ${users} ${r}
                where ${r.id} = ${referredBy} and not ${r.isGuest} and ${r.status} = 'active')
    and not exists (select 1 from ${referralRewards} ${x} where ${x.referredId} = ${id})
    and ${rewardDaysSql} > 0)`;
}

/**
 * A first verification's referral reward, as CTEs of the verification's statement (after
 * `verifiedCte`, the CTE returning the users rows verified for the first time: id and
 * referred_by):
 * - the friend's plan extension (the plan of their organisation, issue #22: from max(now,
 *   their end) on a paid plan or trial, `pro` from now when free) and their `referral`
 *   subscription row for those days;
 * - the referrer's monthly tally: one notification per referrer and month
 *   (`referral_month:YYYY-MM`), inserted or, below `referral.monthly_cap`, counted up by an
 *   INSERT ... ON CONFLICT DO UPDATE. That upsert locks the tally row and reads its newest
 *   version, so concurrent verifications for one referrer are serialised there and the cap
 *   holds (a lock taken inside the statement would not do: the statement's snapshot was taken
 *   before it waited, so a count read after it would miss the rewards that just committed);
 * - only when the tally counted it: the reward row (unique per referred user), the extension of
 *   the plan of the referrer's organisation (the same rule; an unlimited paid plan stays so)
 *   and their `referral` subscription row.
 * Past the cap the friend still gets their days; the referrer gets nothing more that month.
 */
export function referralRewardOnVerification(
  verified: Cte<string, "id" | "referred_by">,
  now: string,
): SQL {
  const at = sql`${now}::timestamptz`;
  const month = sql`to_char(${at} at time zone 'UTC', 'YYYY-MM')`;
  const n = notifications;
  const tallyBody = (count: SQL, cap: SQL, days: SQL) =>
    sql`'A friend you invited verified their account: you both get ' || ${days}
      || ' days of the Pro plan (' || ${count} || ' of ' || ${cap}
      || ' referral rewards this month).'`;
  const rr = referralRewards;
  /** The `referral` subscription row of each user of `source` whose plan got `days` more. */
  const rewardSubscription = (source: string, userId: string) =>
    referralSubscriptionInsert(
      sql`select x.${sql.identifier(userId)} as user_id, x.plan as plan_code,
            coalesce(x.plan_expires_at - make_interval(days => x.days), ${at}) as starts_at,
            coalesce(x.plan_expires_at, ${at} + make_interval(days => x.days)) as ends_at,
            ${at} as created_at
          from ${sql.identifier(source)} x`,
    );
  return sql`referral_pair as (
      select v.id as referred_id, v.referred_by as referrer_id,
        ${rewardDaysSql} as days, ${monthlyCapSql} as cap, ${month} as month
      from ${verified} v where ${referredEligible("v")}),
    referred_plan as (${planExtensionUpdate({
      from: sql`referral_pair rp`,
      userId: sql`rp.referred_id`,
      days: sql`rp.days`,
      at,
      paidPlan: REFERRAL_PLAN,
    })}),
    referred_subscription as (${rewardSubscription("referred_plan", "id")}),
    referral_tally as (${notificationInsert(
      "referral_rewarded",
      sql`select p.referrer_id as user_id, 'Referral reward: ' || p.days || ' days of Pro' as title,
            ${tallyBody(sql`1`, sql`p.cap`, sql`p.days`)} as body,
            jsonb_build_object('referred_id', p.referred_id, 'days', p.days, 'month', p.month,
                               'count', 1, 'cap', p.cap) as data,
            'referral_month:' || p.month as dedupe_key
          from referral_pair p where p.cap > 0`,
      now,
      sql`do update set
        ${col(n.data)} = excluded.${col(n.data)} || jsonb_build_object(
          'count', (${n.data} ->> 'count')::int + 1),
        ${col(n.title)} = excluded.${col(n.title)},
        ${col(n.body)} = ${tallyBody(
          sql`((${n.data} ->> 'count')::int + 1)`,
          sql`(excluded.${col(n.data)} ->> 'cap')`,
          sql`(excluded.${col(n.data)} ->> 'days')`,
        )},
        ${col(n.isRead)} = false, ${col(n.readAt)} = null,
        ${col(n.createdAt)} = excluded.${col(n.createdAt)},
        ${col(n.pushState)} = 'pending', ${col(n.pushAttempts)} = 0,
        ${col(n.pushClaimedUntil)} = null, ${col(n.pushedAt)} = null, ${col(n.pushError)} = null
      where coalesce((${n.data} ->> 'count')::int, 0) < (excluded.${col(n.data)} ->> 'cap')::int`,
    )}
      returning ${n.userId} as referrer_id, (${n.data} ->> 'referred_id')::uuid as referred_id,
        (${n.data} ->> 'days')::int as days),
    referral_reward as (
      insert into ${rr} (${columnNames([rr.referrerId, rr.referredId, rr.days, rr.createdAt])})
      select referrer_id, referred_id, days, ${at} from referral_tally
      on conflict (${col(rr.referredId)}) do nothing
      returning ${rr.referrerId}, ${rr.referredId}, ${rr.days}),
    referrer_plan as (${planExtensionUpdate({
      from: sql`referral_reward w`,
      userId: sql`w.referrer_id`,
      days: sql`w.days`,
      at,
      paidPlan: REFERRAL_PLAN,
    })}),
    referrer_subscription as (${rewardSubscription("referrer_plan", "id")})`;
}

/**
 * The user's referral code and guest flag with the reward in days, the days earned in all
 * (every `referral` subscription row: as referrer and as friend) and the number of rewards.
 */
export async function getReferralSummary(db: Db, params: { userId: string }) {
  const s = subscriptions;
  const rr = referralRewards;
  const [row] = await queryRows<
    Pick<DbRow<typeof users>, "referral_code" | "is_guest"> & {
      reward_days: number;
      total_days: number;
      referral_count: number;
    }
  >(
    db,
    sql`select ${users.referralCode}, ${users.isGuest}, ${rewardDaysSql} as reward_days,
          (select coalesce(round(sum(extract(epoch from ${s.endsAt} - ${s.startsAt})) / 86400), 0)::int
           from ${s} where ${s.userId} = ${users.id} and ${s.billingCycle} = 'referral') as total_days,
          (select count(*)::int from ${rr} where ${rr.referrerId} = ${users.id}) as referral_count
        from ${users} where ${users.id} = ${params.userId}`,
  );
  return row;
}

/** The referrer's rewarded referrals, newest first, with each friend's email. */
export function listReferralRewards(db: Db, params: { referrerId: string; limit: number }) {
  const rr = referralRewards;
  return queryRows<
    Pick<DbRow<typeof users>, "email"> &
      Pick<DbRow<typeof referralRewards>, "days"> & { user_id: string; rewarded_at: string }
  >(
    db,
    sql`select ${rr.referredId} as user_id, ${users.email}, ${rr.createdAt} as rewarded_at,
          ${rr.days}
        from ${rr} join ${users} on ${users.id} = ${rr.referredId}
        where ${rr.referrerId} = ${params.referrerId}
        order by ${rr.createdAt} desc, ${rr.id} desc limit ${params.limit}`,
  );
}

import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, prebuilt, queryPrebuilt, queryRows, queryRowsPrepared } from "../../../db/client";
import {
  creditConsumptions,
  creditHolds,
  creditLedger,
  creditLots,
  creditQuotes,
  type LedgerKind,
  orgMembers,
  subscriptionPlans,
  systemConfig,
  userCredits,
  users,
} from "../../../db/schema";
import { memberFiguresAccessSql, visibleTo } from "../../../db/scope";
import { columnList, columnNames, type DbRow, rendered } from "../../../db/sql";
import { offsetOf } from "../../../lib/pagination";
import {
  effectivePlanSql,
  type OrgPlanColumns,
  planOrg,
  planOrgJoin,
} from "../../entitlements/queries";

type LedgerRow = DbRow<typeof creditLedger>;
type ConsumptionRow = DbRow<typeof creditConsumptions>;

/**
 * What credit_charge returns (migration 0026): whether it was covered, the organisation's
 * balance, its rows; when refused, why (`member_limit`: the member's monthly limit would be
 * passed; `insufficient_credits`); the member's monthly limit and use this month (after the
 * charge) when they have a limit.
 */
type ChargeResult = {
  ok: boolean;
  balance: number;
  ledger_id: LedgerRow["id"] | null;
  consumption_id: ConsumptionRow["id"] | null;
  refusal: "member_limit" | "insufficient_credits" | null;
  member_limit: number | null;
  member_used: number | null;
};

/** Why a quote named in a charge was refused; 'ok' when it was good; null: no quote named. */
export type QuoteState = "ok" | "not_found" | "wrong_operation" | "used" | "expired";

/**
 * The charge statement's row: the cost charged (null: none configured, or the quote was refused),
 * credit_charge's result, and the state of the quote named, if any.
 */
type OperationCharge = {
  cost: number | null;
  /** The price before the cap. */
  price: number | null;
  quote_state: QuoteState | null;
} & {
  [K in keyof ChargeResult]: ChargeResult[K] | null;
};

/** What credit_grant and credit_refund return. */
type GrantResult = { applied: boolean; balance: number; ledger_id: LedgerRow["id"] | null };

// The charge is built for every billed request: its table and column names rendered once.
const CHARGE = {
  config: rendered(sql`${systemConfig}`),
  configValue: rendered(sql`${systemConfig.value}`),
  configKey: rendered(sql`${systemConfig.key}`),
  holdColumns: rendered(
    columnNames([
      creditHolds.consumptionId,
      creditHolds.userId,
      creditHolds.instanceId,
      creditHolds.idempotencyKey,
      creditHolds.heartbeatAt,
      creditHolds.createdAt,
    ]),
  ),
};

/**
 * The charge of a billable operation, one statement: its cost is the quote's credits when
 * `quoteId` names a good quote (the caller's, for this operation, not spent, not expired), else
 * the `credits.costs` system config's; capped at `cap` when given (an agent run's max_credits).
 * credit_charge runs when the cost is above 0 (soonest-expiring lots first; ledger and
 * consumption rows written with it); with `hold`, the same statement records the charge as held
 * by `instanceId`. The quote is spent in the same statement, only when the charge went through:
 * its row is locked first, so of two statements naming it the second sees it spent. A quote
 * whose consumption was refunded (the work failed) counts as not spent. A row with a null cost
 * when none is configured or the quote was refused (`quote_state` says why; nothing written).
 */
export async function chargeOperation(
  db: Db,
  params: {
    userId: string;
    operation: string;
    note: string | null;
    idempotencyKey: string | null;
    instanceId: string;
    hold: boolean;
    now: string;
    quoteId?: string | null;
    cap?: number | null;
  },
): Promise<OperationCharge | undefined> {
  const [row] = await queryPrebuilt<OperationCharge>(db, CHARGE_STATEMENT, {
    quoteId: null,
    cap: null,
    ...params,
  });
  return row;
}

// Named, and built once: parsing and planning it cost about a third of a charge (pgbench on the
// statement alone: +50% charges/s prepared), building its text ~15 µs of the client's ~100.
const CHARGE_STATEMENT = (() => {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p("now")}::timestamptz`;
  const { config, configValue, configKey, holdColumns } = CHARGE;
  return prebuilt(
    sql`with quote as materialized (
        select q.id, q.user_id, q.operation, q.credits, q.expires_at, q.used_at, q.consumption_id
        from ${creditQuotes} q where q.id = ${p("quoteId")}::uuid for update),
      quoted as (
        select case
            when ${p("quoteId")}::uuid is null then null
            when q.id is null or q.user_id <> ${p("userId")}::uuid then 'not_found'
            when q.operation <> ${p("operation")}::text then 'wrong_operation'
            when q.used_at is not null and coalesce((
              -- Given back only by a refund of the whole charge (a partial one kept some).
              select c.status <> 'refunded' or coalesce(l.delta, 0) < c.cost
              from ${creditConsumptions} c left join ${creditLedger} l on l.id = c.refund_ledger_id
              where c.id = q.consumption_id), true) then 'used'
            when q.expires_at <= ${now} then 'expired'
            else 'ok' end as quote_state,
          q.credits
        from (select 1) one left join quote q on true),
      price as materialized (
        select quoted.quote_state, base.cost as price,
          least(base.cost, coalesce(${p("cap")}::int, base.cost)) as cost
        from quoted cross join lateral (
          select case
            when quoted.quote_state is null then (
              select (${configValue} ->> ${p("operation")}::text)::int
              from ${config} where ${configKey} = 'credits.costs')
            when quoted.quote_state = 'ok' then quoted.credits end as cost) base),
      charged as (
        select price.cost, price.price, price.quote_state, c.ok, c.balance, c.ledger_id, c.consumption_id,
          c.refusal, c.member_limit, c.member_used
        from price left join lateral (
          -- The function reads g.cost, so it runs once per row of g (offset 0 keeps g a
          -- subquery of its own, its filter first): never without a cost above 0.
          select r.* from (select price.cost where price.cost > 0 offset 0) g
          cross join lateral credit_charge(${p("userId")}::uuid, g.cost, 'consumption',
            ${p("operation")}, ${p("note")}, null::uuid, ${p("idempotencyKey")},
            ${now}) r) c on true),
      spent as (
        update ${creditQuotes} set used_at = ${now}, consumption_id = charged.consumption_id
        from charged
        where ${creditQuotes.id} = ${p("quoteId")}::uuid and charged.quote_state = 'ok'
          and (charged.cost = 0 or charged.ok)
        returning 1),
      held as (
        insert into ${creditHolds} (${holdColumns})
        select consumption_id, ${p("userId")}, ${p("instanceId")},
          ${p("idempotencyKey")}, ${now}, ${now}
        from charged where ${p("hold")} and ok and consumption_id is not null)
      select * from charged`,
  );
})();

/**
 * An admin's deduction of `amount` (credit_charge, kind admin_adjustment): nothing is written
 * when the balance does not cover it.
 */
export async function chargeAdjustment(
  db: Db,
  params: { userId: string; amount: number; reason: string; actorId: string; now: string },
): Promise<Pick<ChargeResult, "ok" | "balance" | "ledger_id"> | undefined> {
  const [row] = await queryRows<Pick<ChargeResult, "ok" | "balance" | "ledger_id">>(
    db,
    sql`select ok, balance, ledger_id from credit_charge(${params.userId}::uuid, ${params.amount},
        'admin_adjustment', null, ${params.reason}, ${params.actorId}::uuid, null,
        ${params.now}::timestamptz)`,
  );
  return row;
}

/** Gives a consumption back (credit_refund); a second call changes nothing. */
export async function refundConsumption(
  db: Db,
  params: { consumptionId: string; reason: string; now: string },
): Promise<(Pick<GrantResult, "applied"> & { balance: number | null }) | undefined> {
  const [row] = await queryRows<Pick<GrantResult, "applied"> & { balance: number | null }>(
    db,
    sql`select applied, balance from credit_refund(${params.consumptionId}::uuid, ${params.reason},
        ${params.now}::timestamptz)`,
  );
  return row;
}

/** Adds a lot once per (kind, source) (credit_grant): a repeat returns applied = false. */
export async function grantLot(
  db: Db,
  params: {
    userId: string;
    amount: number;
    kind: LedgerKind;
    sourceType: string;
    sourceId: string;
    expiresAt: string | null;
    note: string | null;
    actorId: string | null;
    now: string;
  },
): Promise<GrantResult | undefined> {
  const [row] = await queryRows<GrantResult>(
    db,
    sql`select applied, balance, ledger_id from credit_grant(${params.userId}::uuid, ${params.amount},
        ${params.kind}, ${params.sourceType}, ${params.sourceId},
        ${params.expiresAt}::timestamptz,
        ${params.note}, ${params.actorId}::uuid, ${params.now}::timestamptz)`,
  );
  return row;
}

export async function getCreditBalance(
  db: Db,
  params: { userId: string },
): Promise<Pick<DbRow<typeof userCredits>, "balance"> | undefined> {
  const [row] = await queryRows<Pick<DbRow<typeof userCredits>, "balance">>(
    db,
    sql`select ${userCredits.balance} from ${userCredits} where ${userCredits.userId} = ${params.userId}`,
  );
  return row;
}

type BalanceRow = OrgPlanColumns & {
  plan: string;
  features: DbRow<typeof subscriptionPlans>["features"] | string | null;
  balance: number;
  expiring: { amount: number; expires_at: string }[] | null;
  member_limit: number | null;
  member_used_month: number;
};

/**
 * The balance a user can spend at `now` (lots past their expiry that the task has not yet
 * written off are left out), their organisation's plan in effect and its features, and what
 * expires when.
 */
export async function getBalanceRow(
  db: Db,
  params: { userId: string; now: string },
): Promise<BalanceRow | undefined> {
  const now = sql`${params.now}::timestamptz`;
  const u = alias(users, "u");
  const p = alias(subscriptionPlans, "p");
  const l = alias(creditLots, "l");
  // The wallet is the member's organisation's (ADR 0098).
  const wm = alias(orgMembers, "wm");
  const [row] = await queryRows<BalanceRow>(
    db,
    sql`select ep.code as plan,
          (select ${p.features} from ${subscriptionPlans} ${p} where ${p.code} = ep.code) as features,
          ${planOrg.planExpiresAt}, ${planOrg.trialEndsAt},
          coalesce((select sum(${l.remaining}) from ${creditLots} ${l}
                    where ${l.orgId} = ${wm.orgId} and ${l.remaining} > 0
                      and (${l.expiresAt} is null or ${l.expiresAt} > ${now})), 0)::int
            as balance,
          (select json_agg(json_build_object('amount', e.amount, 'expires_at', e.expires_at)
                           order by e.expires_at)
           from (select sum(${l.remaining})::int as amount, ${l.expiresAt} from ${creditLots} ${l}
                 where ${l.orgId} = ${wm.orgId} and ${l.remaining} > 0
                   and ${l.expiresAt} > ${now}
                 group by ${l.expiresAt}) e) as expiring,
          ${wm.monthlyCreditLimit} as member_limit,
          member_credits_used_month(${u.id}, ${wm.orgId}, ${now}) as member_used_month
        from ${users} ${u} ${planOrgJoin(u.id)}
        join ${orgMembers} ${wm} on ${wm.userId} = ${u.id}
        cross join lateral (select ${effectivePlanSql(planOrg.plan, planOrg.planExpiresAt, now)}
          as code) ep
        where ${u.id} = ${params.userId}`,
  );
  return row;
}

export type LedgerEntry = Pick<
  LedgerRow,
  | "id"
  | "org_id"
  | "user_id"
  | "delta"
  | "balance_after"
  | "kind"
  | "source_type"
  | "source_id"
  | "operation"
  | "actor_id"
  | "note"
  | "created_at"
>;

/** Whether the caller may see the rows of the member they filter by (scope.ts). */
export type FiguresAccess = "ok" | "forbidden" | "not_found";

/**
 * A page of the caller's organisation's ledger, newest first, one statement: the rows the
 * caller may see (scope.ts: a member their own, manager+ every member's), by member (`userId`),
 * kind and operation. `access` says whether the caller may filter by that member; when it is
 * not 'ok' the page is empty.
 */
export async function listLedgerPage(
  db: Db,
  params: {
    callerId: string;
    userId?: string;
    kind?: string;
    operation?: string;
    page: number;
    size: number;
  },
): Promise<{ access: FiguresAccess; rows: LedgerEntry[]; total: number }> {
  const l = alias(creditLedger, "l");
  const filters: SQL[] = [visibleTo(l, params.callerId)];
  if (params.userId) filters.push(sql`${l.userId} = ${params.userId}::uuid`);
  if (params.kind) filters.push(sql`${l.kind} = ${params.kind}`);
  if (params.operation) filters.push(sql`${l.operation} = ${params.operation}`);
  const where = sql.join(filters, sql` and `);
  const access = params.userId ? memberFiguresAccessSql(params.callerId, params.userId) : sql`'ok'`;
  const rows = await queryRowsPrepared<
    { access: FiguresAccess | null; total_count: number | null } & {
      [K in keyof LedgerEntry]: LedgerEntry[K] | null;
    }
  >(
    db,
    sql`with verdict as (select coalesce(${access}, 'not_found') as access)
        select v.access,
          case when v.access = 'ok'
            then (select count(*)::int from ${creditLedger} ${l} where ${where}) end as total_count,
          page.*
        from verdict v left join lateral (
          select ${columnList([
            l.id,
            l.orgId,
            l.userId,
            l.delta,
            l.balanceAfter,
            l.kind,
            l.sourceType,
            l.sourceId,
            l.operation,
            l.actorId,
            l.note,
            l.createdAt,
          ])}
          from ${creditLedger} ${l} where v.access = 'ok' and ${where}
          order by ${l.createdAt} desc, ${l.id} desc
          limit ${params.size} offset ${offsetOf(params.page, params.size)}) page on true`,
  );
  const first = rows[0];
  return {
    access: first?.access ?? "not_found",
    total: first?.total_count ?? 0,
    rows: rows
      .filter((r) => r.id !== null)
      .map(({ access: _, total_count: __, ...r }) => r as LedgerEntry),
  };
}

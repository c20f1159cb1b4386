import { type SQL, sql } from "drizzle-orm";
import { sumOverUserBatches, TASK_BATCH_SIZE } from "../../db/batches";
import { queryRows } from "../../db/client";
import type { LedgerKind } from "../../db/schema";
import type { Deps } from "../../deps";
import { ApiError, notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";
import { effectivePlanSql } from "../entitlements/service";
import { yearlyPrice } from "./catalog";

/** Billable operations; their costs live in the `credits.costs` system config. */
export const CREDIT_OPERATIONS = [
  "translate",
  "marketing",
  "chat",
  "discovery",
  "followup_draft",
  "quotation_from_inquiry",
  "agent_run",
] as const;
export type CreditOperation = (typeof CREDIT_OPERATIONS)[number];

export interface Charge {
  operation: CreditOperation;
  cost: number;
  balance: number;
  /** Null when the operation is configured as free. */
  consumptionId: string | null;
  ledgerId: string | null;
}

export function insufficientCredits(required: number, balance: number) {
  return new ApiError(402, "Not enough credits for this operation", {
    extra: { required, balance },
  });
}

/**
 * Charges the configured cost of `operation`: one statement reads the cost and runs
 * credit_charge (soonest-expiring credits first, ledger row and consumption row written with
 * it). Not enough credits is a 402 carrying `required` and `balance`; nothing is written.
 * With `hold`, the same statement records the charge as held by that instance until the work
 * answers (credits/holds.ts): a crash before then refunds it.
 */
export async function chargeCredits(
  deps: Deps,
  input: {
    userId: string;
    operation: CreditOperation;
    idempotencyKey?: string;
    note?: string;
    hold?: boolean;
  },
): Promise<Charge> {
  const now = sql`${nowIso(deps)}::timestamptz`;
  const [row] = await queryRows<{
    cost: number | null;
    ok: boolean | null;
    balance: number | null;
    ledger_id: string | null;
    consumption_id: string | null;
  }>(
    deps.db,
    sql`with price as (
        select (value ->> ${input.operation})::int as cost
        from system_config where key = 'credits.costs'),
      charged as (
        select price.cost, c.ok, c.balance, c.ledger_id, c.consumption_id
        from price left join lateral (
          select * from credit_charge(${input.userId}::uuid, price.cost, 'consumption',
            ${input.operation}, ${input.note ?? null}, null::uuid, ${input.idempotencyKey ?? null},
            ${now})
          where price.cost > 0) c on true),
      held as (
        insert into credit_holds (consumption_id, user_id, instance_id, idempotency_key,
          heartbeat_at, created_at)
        select consumption_id, ${input.userId}, ${deps.work.instanceId},
          ${input.idempotencyKey ?? null}, ${now}, ${now}
        from charged where ${input.hold === true} and ok and consumption_id is not null)
      select * from charged`,
  );
  if (!row || row.cost === null) {
    throw new Error(`credits.costs has no cost for ${input.operation}`);
  }
  if (row.cost === 0) {
    const balance = await creditBalance(deps, input.userId);
    return { operation: input.operation, cost: 0, balance, consumptionId: null, ledgerId: null };
  }
  if (!row.ok) throw insufficientCredits(row.cost, row.balance ?? 0);
  if (input.hold && row.consumption_id) deps.work.trackHold(row.consumption_id);
  return {
    operation: input.operation,
    cost: row.cost,
    balance: row.balance!,
    consumptionId: row.consumption_id,
    ledgerId: row.ledger_id,
  };
}

/** Gives a charge back after a provider failure; a second call changes nothing. */
export async function refundCharge(
  deps: Deps,
  charge: Pick<Charge, "consumptionId">,
  reason: string,
) {
  if (!charge.consumptionId) return { applied: false, balance: null as number | null };
  const [row] = await queryRows<{ applied: boolean; balance: number | null }>(
    deps.db,
    sql`select applied, balance from credit_refund(${charge.consumptionId}::uuid, ${reason},
        ${nowIso(deps)}::timestamptz)`,
  );
  return { applied: row?.applied ?? false, balance: row?.balance ?? null };
}

export interface GrantInput {
  userId: string;
  amount: number;
  kind: Exclude<LedgerKind, "consumption" | "refund" | "expiry">;
  sourceType: string;
  sourceId: string;
  expiresAt?: Date | null;
  note?: string;
  actorId?: string;
}

/** Adds a lot of credits once per (kind, source): a repeated grant returns applied = false. */
export async function grantCredits(deps: Deps, input: GrantInput) {
  const [row] = await queryRows<{ applied: boolean; balance: number; ledger_id: string | null }>(
    deps.db,
    sql`select applied, balance, ledger_id from credit_grant(${input.userId}::uuid, ${input.amount},
        ${input.kind}, ${input.sourceType}, ${input.sourceId},
        ${input.expiresAt ? input.expiresAt.toISOString() : null}::timestamptz,
        ${input.note ?? null}, ${input.actorId ?? null}::uuid, ${nowIso(deps)}::timestamptz)`,
  );
  return { applied: row!.applied, balance: row!.balance, ledgerId: row!.ledger_id };
}

/** Admin correction: positive adds a non-expiring lot, negative deducts (402 if not covered). */
export async function adjustCredits(
  deps: Deps,
  input: { userId: string; delta: number; actorId: string; reason: string },
) {
  if (input.delta > 0) {
    return grantCredits(deps, {
      userId: input.userId,
      amount: input.delta,
      kind: "admin_adjustment",
      sourceType: "admin",
      sourceId: input.actorId,
      note: input.reason,
      actorId: input.actorId,
    });
  }
  const [row] = await queryRows<{ ok: boolean; balance: number; ledger_id: string | null }>(
    deps.db,
    sql`select ok, balance, ledger_id from credit_charge(${input.userId}::uuid, ${-input.delta},
        'admin_adjustment', null, ${input.reason}, ${input.actorId}::uuid, null,
        ${nowIso(deps)}::timestamptz)`,
  );
  if (!row?.ok) throw insufficientCredits(-input.delta, row?.balance ?? 0);
  return { applied: true, balance: row.balance, ledgerId: row.ledger_id };
}

/**
 * Scheduled task: expires every due allowance lot. credit_expire_due locks each user's balance
 * row until its statement commits, so users go in batches and a charge waits on one at most.
 */
export async function expireDueCredits(deps: Deps): Promise<{ users: number; credits: number }> {
  const now = sql`${nowIso(deps)}::timestamptz`;
  const { users, total } = await sumOverUserBatches(
    deps.db,
    (after) => sql`select distinct user_id from credit_lots
      where remaining > 0 and expires_at <= ${now} and user_id > ${after}
      order by user_id limit ${TASK_BATCH_SIZE}`,
    sql`credit_expire_due(due.user_id, ${now})`,
  );
  return { users, credits: total };
}

async function creditBalance(deps: Deps, userId: string): Promise<number> {
  const [row] = await queryRows<{ balance: number }>(
    deps.db,
    sql`select balance from user_credits where user_id = ${userId}`,
  );
  return row?.balance ?? 0;
}

/**
 * The balance a user can spend now (lots past their expiry that the scheduled task has not yet
 * written off are left out), their plan, and what expires when. One round trip.
 */
export async function getBalance(deps: Deps, userId: string) {
  const now = nowIso(deps);
  const [row] = await queryRows<{
    plan: string;
    features: string[] | string | null;
    plan_expires_at: Date | null;
    trial_ends_at: Date | null;
    balance: number;
    expiring: { amount: number; expires_at: string }[] | null;
  }>(
    deps.db,
    sql`select ep.code as plan,
          (select p.features from subscription_plans p where p.code = ep.code) as features,
          u.plan_expires_at, u.trial_ends_at,
          coalesce((select sum(remaining) from credit_lots l
                    where l.user_id = u.id and l.remaining > 0
                      and (l.expires_at is null or l.expires_at > ${now}::timestamptz)), 0)::int
            as balance,
          (select json_agg(json_build_object('amount', e.amount, 'expires_at', e.expires_at)
                           order by e.expires_at)
           from (select sum(remaining)::int as amount, expires_at from credit_lots l
                 where l.user_id = u.id and l.remaining > 0
                   and l.expires_at > ${now}::timestamptz
                 group by expires_at) e) as expiring
        from users u
        cross join lateral (select ${effectivePlanSql(sql`u.plan`, sql`u.plan_expires_at`, sql`${now}::timestamptz`)}
          as code) ep
        where u.id = ${userId}`,
  );
  if (!row) throw notFound("User not found");
  return {
    balance: row.balance,
    plan: row.plan,
    features: ((typeof row.features === "string" ? JSON.parse(row.features) : row.features) ??
      []) as string[],
    plan_expires_at: iso(row.plan_expires_at),
    trial_ends_at: iso(row.trial_ends_at),
    expiring: (row.expiring ?? []).map((e) => ({
      amount: e.amount,
      expires_at: new Date(e.expires_at).toISOString(),
    })),
  };
}

export async function listLedger(
  deps: Deps,
  query: { userId?: string; page: number; size: number; kind?: string; operation?: string },
) {
  const filters: SQL[] = [sql`true`];
  if (query.userId) filters.push(sql`l.user_id = ${query.userId}`);
  if (query.kind) filters.push(sql`l.kind = ${query.kind}`);
  if (query.operation) filters.push(sql`l.operation = ${query.operation}`);
  const where = sql.join(filters, sql` and `);
  const [rows, [count]] = await Promise.all([
    queryRows<{
      id: string;
      user_id: string;
      delta: number;
      balance_after: number;
      kind: LedgerKind;
      source_type: string;
      source_id: string | null;
      operation: string | null;
      actor_id: string | null;
      note: string | null;
      created_at: Date;
    }>(
      deps.db,
      sql`select l.id, l.user_id, l.delta, l.balance_after, l.kind, l.source_type, l.source_id,
            l.operation, l.actor_id, l.note, l.created_at
          from credit_ledger l where ${where}
          order by l.created_at desc, l.id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from credit_ledger l where ${where}`,
    ),
  ]);
  return {
    items: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    total: count?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

export async function listPackages(deps: Deps) {
  const rows = await queryRows<{
    id: string;
    name: string;
    credits: number;
    price: number;
    currency: string;
  }>(
    deps.db,
    sql`select id, name, credits, price, currency from credit_packages
        where active order by sort_order, price`,
  );
  return rows;
}

export async function listPlans(deps: Deps) {
  const rows = await queryRows<{
    id: string;
    code: string;
    name: string;
    currency: string;
    monthly_price: number;
    monthly_credits: number;
    features: string[];
    tier: number;
    discount: number;
  }>(
    deps.db,
    sql`select p.id, p.code, p.name, p.currency, p.monthly_price, p.monthly_credits, p.features,
          p.tier, coalesce((select (value #>> '{}')::float8 from system_config
                            where key = 'plans.yearly_discount'), 0.15) as discount
        from subscription_plans p where p.active order by p.sort_order, p.tier`,
  );
  return rows.map(({ discount, ...plan }) => ({
    ...plan,
    yearly_price: yearlyPrice(plan.monthly_price, discount),
  }));
}

/* ------------------------------------------------------------------ subscription */

interface SubscriptionRow {
  plan: string;
  plan_name: string | null;
  plan_expires_at: Date | string | null;
  trial_ends_at: Date | string | null;
  billing_cycle: "monthly" | "yearly" | null;
  period_start: Date | string | null;
  period_end: Date | string | null;
  paid_until: Date | string | null;
  cancel_at_period_end: boolean | null;
  cancel_requested_at: Date | string | null;
}

/**
 * The caller's subscription, one statement. The plan in effect (an ended plan or trial is free
 * at once); its running paid rows (`subscriptions`, monthly or yearly, not refunded, not ended):
 * the one covering now is the current period, the last one's end is where the paid time ends
 * and its flag says whether the holder cancelled. A new paid order adds a new row, not
 * cancelled, after the others: paying again after cancelling renews. A pro plan without running
 * paid rows and a trial end ahead is the trial.
 */
export async function getSubscription(deps: Deps, userId: string) {
  const now = nowIso(deps);
  const at = sql`${now}::timestamptz`;
  const [row] = await queryRows<SubscriptionRow>(
    deps.db,
    sql`with u as (
        select u.id, u.plan_expires_at, u.trial_ends_at,
          ${effectivePlanSql(sql`u.plan`, sql`u.plan_expires_at`, at)} as plan
        from users u where u.id = ${userId}),
      running as (
        select s.* from subscriptions s join u on s.user_id = u.id
        where s.plan_code = u.plan and s.billing_cycle in ('monthly', 'yearly')
          and s.cancelled_at is null and s.ends_at > ${at}),
      current as (
        select * from running where starts_at <= ${at} order by starts_at desc, id limit 1),
      last as (select * from running order by ends_at desc, id limit 1)
      select u.plan, p.name as plan_name, u.plan_expires_at, u.trial_ends_at,
        coalesce(current.billing_cycle, last.billing_cycle) as billing_cycle,
        coalesce(current.starts_at, last.starts_at) as period_start,
        coalesce(current.ends_at, last.ends_at) as period_end,
        last.ends_at as paid_until, last.cancel_at_period_end, last.cancel_requested_at
      from u left join subscription_plans p on p.code = u.plan
        left join current on true left join last on true`,
  );
  if (!row) throw notFound("User not found");
  const paid = row.paid_until !== null;
  const cancelled = paid && row.cancel_at_period_end === true;
  const trialEnd = iso(row.trial_ends_at);
  const onTrial =
    !paid && row.plan !== "free" && trialEnd !== null && new Date(trialEnd) > deps.clock.now();
  const status = paid
    ? cancelled
      ? "cancelled"
      : "active"
    : onTrial
      ? "trialing"
      : row.plan === "free"
        ? "free"
        : "granted";
  return {
    plan: row.plan,
    plan_name: row.plan_name,
    status,
    billing_cycle: row.billing_cycle,
    current_period_start: iso(row.period_start),
    current_period_end: iso(row.period_end),
    plan_expires_at: row.plan === "free" ? null : iso(row.plan_expires_at),
    renews_at: paid && !cancelled ? iso(row.paid_until) : null,
    cancel_at_period_end: cancelled,
    cancel_requested_at: cancelled ? iso(row.cancel_requested_at) : null,
    on_trial: onTrial,
    trial_ends_at: trialEnd,
  } as const;
}

/**
 * Cancels at period end: every running paid subscription row of the caller is marked (the first
 * request's time is kept, so a repeat changes nothing). The plan keeps working to its end; the
 * downgrade task then moves the account to free. Nothing to cancel: 409 on a trial (it ends by
 * itself), else 404.
 */
export async function cancelSubscription(deps: Deps, userId: string) {
  const at = sql`${nowIso(deps)}::timestamptz`;
  const [row] = await queryRows<{ running: number; on_trial: boolean }>(
    deps.db,
    sql`with running as (
        select s.id, s.cancel_at_period_end from subscriptions s
        where s.user_id = ${userId} and s.billing_cycle in ('monthly', 'yearly')
          and s.cancelled_at is null and s.ends_at > ${at}),
      marked as (
        update subscriptions s set cancel_at_period_end = true, cancel_requested_at = ${at}
        from running r where s.id = r.id and not r.cancel_at_period_end
        returning s.id)
      select (select count(*) from running)::int as running,
        exists (select 1 from users u where u.id = ${userId} and u.plan <> 'free'
                and u.trial_ends_at > ${at}
                and ${effectivePlanSql(sql`u.plan`, sql`u.plan_expires_at`, at)} <> 'free')
          as on_trial,
        (select count(*) from marked)::int as marked`,
  );
  if (!row || row.running === 0) {
    if (row?.on_trial) {
      throw new ApiError(409, "A trial ends by itself at its end date; there is nothing to cancel");
    }
    throw notFound("You have no running paid subscription to cancel");
  }
  return getSubscription(deps, userId);
}

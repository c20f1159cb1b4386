import { sql } from "drizzle-orm";
import type { LedgerKind } from "../../db/schema";
import { ApiError, forbidden, notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { listActivePlans } from "../entitlements/queries";
import { yearlyPrice } from "./catalog";
import {
  cancelRunningSubscriptions,
  chargeAdjustment,
  chargeOperation,
  getBalanceRow,
  getCreditBalance,
  getSubscriptionState,
  grantLot,
  listActivePackages,
  listLedgerPage,
  type QuoteState,
  refundConsumption,
} from "./queries";
import { expireDueLots } from "./queries/expiry";
import { trialActive } from "./trial";

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
  /** What was charged: the price, or the cap when that is lower. */
  cost: number;
  /** The operation's price (quoted or configured), before any cap. */
  price: number;
  balance: number;
  /** Null when the operation is configured as free. */
  consumptionId: string | null;
  ledgerId: string | null;
}

/**
 * 402: the operation's price (`required`), the organisation's balance and what the caller can
 * spend now (`available`: the balance, or less when their monthly limit leaves less).
 */
export function insufficientCredits(required: number, balance: number, available = balance) {
  return new ApiError(402, "Not enough credits for this operation", {
    extra: { required, available, balance },
  });
}

/** What a member can spend now: the balance, capped by what their monthly limit leaves. */
export function availableCredits(balance: number, limit: number | null, used: number | null) {
  if (limit === null) return balance;
  return Math.max(0, Math.min(balance, limit - (used ?? 0)));
}

/**
 * A consumption the member's monthly credit limit refuses (issue #22): 402 naming the limit;
 * `used` is what they spent of it this UTC month.
 */
function memberLimitReached(limit: number, used: number, required: number, balance: number) {
  return new ApiError(402, `monthly credit limit of ${limit} credits reached (used ${used})`, {
    code: "member_limit_reached",
    extra: { required, available: availableCredits(balance, limit, used), balance, limit, used },
  });
}

/** A quote named by a charge and refused (ADR 0108): nothing was charged, nothing spent. */
function quoteRefused(state: Exclude<QuoteState, "ok">): ApiError {
  switch (state) {
    case "not_found":
      return new ApiError(404, "No such quote of yours", { code: "quote_not_found" });
    case "wrong_operation":
      return new ApiError(409, "This quote is for another operation", {
        code: "quote_wrong_operation",
      });
    case "used":
      return new ApiError(409, "This quote was already used; ask for a new one", {
        code: "quote_used",
      });
    case "expired":
      return new ApiError(409, "This quote has expired; ask for a new one", {
        code: "quote_expired",
      });
  }
}

/**
 * Charges the configured cost of `operation`, or exactly the credits of the quote `quoteId`
 * (404 `quote_not_found`, 409 `quote_wrong_operation`, `quote_used` or `quote_expired` when it
 * cannot be used; the quote is spent by the charge's statement), at most `cap` when given: one
 * statement reads the cost and runs
 * credit_charge (soonest-expiring credits first, ledger row and consumption row written with
 * it) on the caller's organisation's wallet. Not enough credits is a 402 carrying `required` and
 * `balance`; a charge past the member's monthly limit a 402 `member_limit_reached` (checked in
 * the same statement, under the member's row lock); nothing is written.
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
    quoteId?: string | undefined;
    /** The most to charge (an agent run's max_credits); the price otherwise. */
    cap?: number | undefined;
  },
): Promise<Charge> {
  const row = await chargeOperation(deps.db, {
    userId: input.userId,
    operation: input.operation,
    note: input.note ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    instanceId: deps.work.instanceId,
    hold: input.hold === true,
    now: nowIso(deps),
    quoteId: input.quoteId ?? null,
    cap: input.cap ?? null,
  });
  if (row?.quote_state && row.quote_state !== "ok") throw quoteRefused(row.quote_state);
  if (!row || row.cost === null) {
    throw new Error(`credits.costs has no cost for ${input.operation}`);
  }
  if (row.cost === 0) {
    const balance = await creditBalance(deps, input.userId);
    return {
      operation: input.operation,
      cost: 0,
      price: row.price ?? 0,
      balance,
      consumptionId: null,
      ledgerId: null,
    };
  }
  if (!row.ok) {
    if (row.refusal === "member_limit") {
      throw memberLimitReached(
        row.member_limit ?? 0,
        row.member_used ?? 0,
        row.cost,
        row.balance ?? 0,
      );
    }
    const balance = row.balance ?? 0;
    throw insufficientCredits(
      row.cost,
      balance,
      availableCredits(balance, row.member_limit, row.member_used),
    );
  }
  if (input.hold && row.consumption_id) deps.work.trackHold(row.consumption_id);
  deps.metrics.charged(input.operation, row.cost);
  return {
    operation: input.operation,
    cost: row.cost,
    price: row.price ?? row.cost,
    balance: row.balance!,
    consumptionId: row.consumption_id,
    ledgerId: row.ledger_id,
  };
}

/** Gives a charge back after a provider failure; a second call changes nothing. */
export async function refundCharge(
  deps: Deps,
  charge: Pick<Charge, "consumptionId"> & Partial<Pick<Charge, "operation" | "cost">>,
  reason: string,
) {
  if (!charge.consumptionId) return { applied: false, balance: null as number | null };
  const row = await refundConsumption(deps.db, {
    consumptionId: charge.consumptionId,
    reason,
    now: nowIso(deps),
  });
  if (row?.applied && charge.operation) deps.metrics.refunded(charge.operation, charge.cost ?? 0);
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
  const row = await grantLot(deps.db, {
    userId: input.userId,
    amount: input.amount,
    kind: input.kind,
    sourceType: input.sourceType,
    sourceId: input.sourceId,
    expiresAt: input.expiresAt ? input.expiresAt.toISOString() : null,
    note: input.note ?? null,
    actorId: input.actorId ?? null,
    now: nowIso(deps),
  });
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
  const row = await chargeAdjustment(deps.db, {
    userId: input.userId,
    amount: -input.delta,
    reason: input.reason,
    actorId: input.actorId,
    now: nowIso(deps),
  });
  if (!row?.ok) throw insufficientCredits(-input.delta, row?.balance ?? 0);
  return { applied: true, balance: row.balance, ledgerId: row.ledger_id };
}

/**
 * Scheduled task: expires every due allowance lot (queries/expiry.ts: set-based, in batches, so a
 * charge waits on one batch at most). `users` counts the wallets.
 */
export async function expireDueCredits(deps: Deps): Promise<{ users: number; credits: number }> {
  const { wallets, total } = await expireDueLots(deps.db, { now: nowIso(deps) });
  return { users: wallets, credits: total };
}

async function creditBalance(deps: Deps, userId: string): Promise<number> {
  const row = await getCreditBalance(deps.db, { userId });
  return row?.balance ?? 0;
}

/**
 * The balance of the caller's organisation's wallet they can spend now (lots past their expiry
 * that the scheduled task has not yet written off are left out), the plan, what expires when,
 * and the caller's monthly limit and use this UTC month. One round trip.
 */
export async function getBalance(deps: Deps, userId: string) {
  const row = await getBalanceRow(deps.db, { userId, now: nowIso(deps) });
  if (!row) throw notFound("User not found");
  return {
    balance: row.balance,
    plan: row.plan,
    features: ((typeof row.features === "string" ? JSON.parse(row.features) : row.features) ??
      []) as string[],
    plan_expires_at: iso(row.plan_expires_at),
    trial_ends_at: iso(row.trial_ends_at),
    on_trial: trialActive(row, deps.clock.now()),
    expiring: (row.expiring ?? []).map((e) => ({
      amount: e.amount,
      expires_at: new Date(e.expires_at).toISOString(),
    })),
    member_used_month: row.member_used_month,
    member_limit: row.member_limit,
  };
}

/**
 * The caller's organisation's ledger: a member sees the rows naming them, manager+ every
 * member's and may filter by `userId`. A member filtering by someone else is 403; an account
 * outside the organisation 404.
 */
export async function listLedger(
  deps: Deps,
  query: {
    callerId: string;
    userId?: string;
    page: number;
    size: number;
    kind?: string;
    operation?: string;
  },
) {
  const { access, rows, total } = await listLedgerPage(deps.db, query);
  if (access === "forbidden") {
    throw forbidden("The manager role is required to see another member's credit history");
  }
  if (access === "not_found") throw notFound("No such member in your organisation");
  return {
    items: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function listPackages(deps: Deps) {
  return listActivePackages(deps.db);
}

export async function listPlans(deps: Deps) {
  const rows = await listActivePlans(deps.db);
  return rows.map(({ discount, ...plan }) => ({
    ...plan,
    yearly_price: yearlyPrice(plan.monthly_price, discount),
  }));
}

/* ------------------------------------------------------------------ subscription */

/**
 * The caller's subscription, one statement. The plan in effect (an ended plan or trial is free
 * at once); its running paid rows (`subscriptions`, monthly or yearly, not refunded, not ended):
 * the one covering now is the current period, the last one's end is where the paid time ends
 * and its flag says whether the holder cancelled. A new paid order adds a new row, not
 * cancelled, after the others: paying again after cancelling renews. A pro plan without running
 * paid rows and a trial end ahead is the trial.
 */
export async function getSubscription(deps: Deps, userId: string) {
  const row = await getSubscriptionState(deps.db, {
    userId,
    at: sql`${nowIso(deps)}::timestamptz`,
  });
  if (!row) throw notFound("User not found");
  const paid = row.paid_until !== null;
  const cancelled = paid && row.cancel_at_period_end === true;
  const trialEnd = iso(row.trial_ends_at);
  // One rule with /auth/me and /credits/balance (credits/trial.ts); paid time is never a trial.
  const onTrial = !paid && trialActive(row, deps.clock.now());
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
  const row = await cancelRunningSubscriptions(deps.db, { userId, at });
  if (!row || row.running === 0) {
    if (row?.on_trial) {
      throw new ApiError(409, "A trial ends by itself at its end date; there is nothing to cancel");
    }
    throw notFound("You have no running paid subscription to cancel");
  }
  return getSubscription(deps, userId);
}

import { withTransaction } from "../../db/client";
import { ApiError } from "../../http/errors";
import type { Deps } from "../../ports";
import { configuredProviders } from "../ai-admin/queries";
import { refundHold } from "../credits/holds";
import { keptIdempotencyOutcomeSql } from "../credits/idempotency";
import { consumptionRefundedSql, settleHoldCte } from "../credits/queries/ai-holds";
import { type Charge, type CreditOperation, chargeCredits } from "../credits/service";
import { billingLogCte } from "../usage/queries/billing-log";
import { notRefundedSql, settleHoldAndLog } from "./queries";

/** The providers an operation cannot run without: checked before anything is charged. */
type ProviderNeed = "llm" | "translation" | "discovery";

export interface BilledInput {
  userId: string;
  operation: CreditOperation;
  /** Without such a provider configured: 503, and nothing is charged (ARCHITECTURE.md). */
  requires?: ProviderNeed;
  /** The request's Idempotency-Key: a retried request is charged once. */
  idempotencyKey?: string | undefined;
  ip?: string | null;
  /** The status the route answers a success with, kept with the answer under the key. */
  status?: number;
  /**
   * A quote of this operation (POST /credits/quote, body field `quote_id`): charged exactly as
   * quoted, the quote spent by the charge's own statement (404 `quote_not_found`, 409
   * `quote_used`, `quote_expired` or `quote_wrong_operation` before anything is charged). A
   * refund of the charge (the work failed) gives the quote back for the retry (ADR 0108).
   */
  quoteId?: string | undefined;
  /** The most the charge may take (an agent run's `max_credits`); the price when above it. */
  maxCredits?: number | undefined;
}

/** A billed operation in its steps (billed()). */
export interface BilledSteps<P, T, A> {
  /** The work itself (provider calls): it writes nothing, so a crash here leaves only the hold. */
  run(charge: Charge): Promise<P>;
  /**
   * Writes the work's output, in the transaction that settles the charge and keeps the answer
   * under the Idempotency-Key: `deps.db` is that transaction, and a throw rolls it back and
   * refunds. Without it, what `run` produced is the result.
   */
  store?(deps: Deps, produced: P, charge: Charge): Promise<T>;
  /** What the usage log says of the result. */
  describe?(result: T): Record<string, unknown>;
  /** The route's answer, kept under the Idempotency-Key; without it, the result itself. */
  answer?(result: T, charge: Charge): A;
}

/**
 * The billable-operation pattern every AI route follows: charge the operation's configured
 * cost first (402 when the balance is short, nothing written), do the work, and give the
 * credits back if the work fails (a provider outage costs the user nothing; a second refund
 * changes nothing). Until the work answers, the charge is a hold of this instance
 * (credits/holds.ts): if the process dies first, the credits come back when it restarts or when
 * its heartbeat has been silent for two minutes.
 *
 * Exactly once across a crash: the work's stored output, the settled charge, the usage-log row
 * and the answer kept under the request's Idempotency-Key commit together (one transaction,
 * ADR 0085). A crash before the commit leaves the hold, refunded at restart, and no output; a
 * crash after it leaves a key that replays the answer, so the client's retry is never charged
 * twice and never finds an output nobody paid for.
 * When the operation's providers are not configured at all, it answers 503 before charging,
 * so an unconfigured deployment leaves no charge-and-refund pairs in the ledger.
 */
export async function billed<P, T = P, A = T>(
  deps: Deps,
  input: BilledInput,
  steps: BilledSteps<P, T, A>,
): Promise<{ result: T; charge: Charge; answer: A }> {
  const hold = await billedHold(deps, input);
  const { charge } = hold;
  const failed = async (error: unknown): Promise<never> => {
    await hold.fail(`${input.operation} failed`);
    throw error;
  };
  let produced: P;
  try {
    produced = await steps.run(charge);
  } catch (error) {
    return failed(error);
  }
  const { store, describe } = steps;
  // Made once: the answer kept under the key is the very one the route sends.
  let answered: { value: A } | undefined;
  const answer = (result: T): A => {
    answered ??= {
      value: steps.answer ? steps.answer(result, charge) : (result as unknown as A),
    };
    return answered.value;
  };
  try {
    const result = await hold.settle<T>({
      ...(store
        ? { store: (tx: Deps) => store(tx, produced, charge) }
        : { value: produced as unknown as T }),
      ...(describe ? { describe } : {}),
      answer,
    });
    return { result, charge, answer: answer(result) };
  } catch (error) {
    return failed(error);
  }
}

/** How a hold ends when its work answered (BilledHold.settle). */
interface HoldSettlement<T> {
  /** Writes the output in the settling transaction (`deps.db` is it); its value is the result. */
  store?(deps: Deps): Promise<T>;
  /** The result when there is nothing to store. */
  value?: T;
  /** What the usage log says of the result. */
  describe?(result: T): Record<string, unknown>;
  /** The answer kept under the Idempotency-Key, when the request has one. */
  answer?(result: T): unknown;
}

export interface BilledHold {
  charge: Charge;
  /**
   * The work answered: its output is stored, the credits stay spent, the usage log says what
   * it cost and the key keeps the answer, all in one commit. Throws, having written nothing,
   * when the store throws or when the charge was refunded meanwhile (the caller then fails).
   */
  settle<T = undefined>(settlement?: HoldSettlement<T>): Promise<T>;
  /** The work failed: the credits come back (a no-op once settled). */
  fail(reason: string): Promise<void>;
}

/**
 * billed() for work that answers after the call returns (a streamed reply): the caller settles
 * or fails the hold when the stream ends, and must do one of them (a `finally` does).
 */
export async function billedHold(deps: Deps, input: BilledInput): Promise<BilledHold> {
  if (input.requires) await requireProviders(deps, input.requires);
  const charge = await chargeCredits(deps, {
    userId: input.userId,
    operation: input.operation,
    hold: true,
    ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
    ...(input.quoteId ? { quoteId: input.quoteId } : {}),
    ...(input.maxCredits !== undefined ? { cap: input.maxCredits } : {}),
  });
  let settled = false;
  return {
    charge,
    settle: async <T>(settlement: HoldSettlement<T> = {}) => {
      if (settled) throw new Error("billed hold settled twice");
      const result = await settleHold(deps, input, charge, settlement);
      settled = true;
      return result;
    },
    fail: async (reason) => {
      if (settled) return;
      settled = true;
      try {
        if (charge.consumptionId) {
          const refund = await refundHold(deps, charge.consumptionId, reason);
          if (refund.applied) deps.metrics.refunded(charge.operation, charge.cost);
        }
      } finally {
        if (charge.consumptionId) deps.work.untrackHold(charge.consumptionId);
      }
    },
  };
}

/** Said when the charge was given back before the work could be stored: nothing was kept. */
const STALLED = "The request took too long and its credits were returned; please try again";

/**
 * Stores the output (when there is any to store) and settles in one transaction; without an
 * output to store, the settling statement alone. The statement deletes the hold (its credits
 * stay spent), writes the usage log and keeps the answer under the key, unless the hold was
 * already gone with its consumption refunded: the heartbeat stopped long enough for the sweep
 * to refund it (a stalled instance). Then nothing is kept: 503, and the client's retry runs.
 */
async function settleHold<T>(
  deps: Deps,
  input: BilledInput,
  charge: Charge,
  settlement: HoldSettlement<T>,
): Promise<T> {
  const id = charge.consumptionId;
  const key = input.idempotencyKey;
  const settleWith = async (db: Deps["db"], result: T) => {
    const refunded = await settleHoldAndLog(db, {
      settle: settleHoldCte(id),
      refunded: consumptionRefundedSql(id),
      log: billingLogCte({
        userId: input.userId,
        event: input.operation,
        ip: input.ip ?? null,
        metadata: {
          credits: charge.cost,
          consumption_id: id,
          ...(settlement.describe?.(result) ?? {}),
        },
        when: notRefundedSql,
      }),
      ...(key
        ? {
            keep: keptIdempotencyOutcomeSql(
              deps,
              {
                userId: input.userId,
                key,
                status: input.status ?? 200,
                body: settlement.answer ? settlement.answer(result) : result,
              },
              notRefundedSql,
            ),
          }
        : {}),
    });
    if (refunded) {
      deps.logger.warn("billed work answered after its hold was refunded", {
        operation: input.operation,
        consumption_id: id,
      });
      throw new ApiError(503, STALLED);
    }
    return result;
  };
  const { store } = settlement;
  const result = store
    ? await withTransaction(deps.db, async (tx) => settleWith(tx, await store({ ...deps, db: tx })))
    : await settleWith(deps.db, settlement.value as T);
  if (id) deps.work.untrackHold(id);
  if (key) deps.work.untrackKey(input.userId, key);
  return result;
}

/** One query: whether any enabled provider of each kind exists. */
async function requireProviders(deps: Deps, need: ProviderNeed): Promise<void> {
  const row = await configuredProviders(deps.db);
  const ok =
    need === "llm"
      ? row?.llm
      : need === "translation"
        ? row?.llm || row?.mt
        : row?.llm && row?.search;
  if (!ok) {
    throw new ApiError(
      503,
      need === "discovery"
        ? "No search or AI provider is configured; nothing was charged"
        : "No AI provider is configured; nothing was charged",
    );
  }
}

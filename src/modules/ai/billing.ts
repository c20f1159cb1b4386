import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import { configuredProviders } from "../ai-admin/queries";
import { refundHold } from "../credits/holds";
import { consumptionRefundedSql, settleHoldCte } from "../credits/queries/ai-holds";
import { type Charge, type CreditOperation, chargeCredits } from "../credits/service";
import { billingLogCte } from "../usage/queries/billing-log";
import { settleHoldAndLog } from "./queries";

/** The providers an operation cannot run without: checked before anything is charged. */
type ProviderNeed = "llm" | "translation" | "discovery";

export interface BilledInput {
  userId: string;
  operation: CreditOperation;
  /** Without such a provider configured: 503, and nothing is charged (ARCHITECTURE.md). */
  requires?: ProviderNeed;
  /** The request's Idempotency-Key: a retried request is charged once. */
  idempotencyKey?: string;
  ip?: string | null;
}

/**
 * The billable-operation pattern every AI route follows: charge the operation's configured
 * cost first (402 when the balance is short, nothing written), do the work, and give the
 * credits back if the work fails (a provider outage costs the user nothing; a second refund
 * changes nothing). Until the work answers, the charge is a hold of this instance
 * (credits/holds.ts): if the process dies first, the credits come back when it restarts or when
 * its heartbeat has been silent for two minutes. A usage-log row records each billed operation
 * with what it cost and which provider served it (spec: usage logs are written on billable
 * operations), in the statement that settles the hold.
 * When the operation's providers are not configured at all, it answers 503 before charging,
 * so an unconfigured deployment leaves no charge-and-refund pairs in the ledger.
 */
export async function billed<T>(
  deps: Deps,
  input: BilledInput,
  work: (charge: Charge) => Promise<T>,
  describe: (result: T) => Record<string, unknown> = () => ({}),
): Promise<{ result: T; charge: Charge }> {
  const { charge, settle, fail } = await billedHold(deps, input);
  let result: T;
  try {
    result = await work(charge);
  } catch (error) {
    await fail(`${input.operation} failed`);
    throw error;
  }
  await settle(describe(result));
  return { result, charge };
}

export interface BilledHold {
  charge: Charge;
  /** The work answered: the credits stay spent, and the usage log says what it cost. */
  settle(details?: Record<string, unknown>): Promise<void>;
  /** The work failed: the credits come back. */
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
  });
  let ended = false;
  return {
    charge,
    settle: async (details = {}) => {
      if (ended) return;
      ended = true;
      await settleHold(deps, input, charge, details);
    },
    fail: async (reason) => {
      if (ended) return;
      ended = true;
      if (charge.consumptionId) await refundHold(deps, charge.consumptionId, reason);
    },
  };
}

/**
 * One statement: the hold goes (its credits stay spent) and the usage log is written. A hold
 * already gone with its consumption refunded means the heartbeat stopped long enough for the
 * sweep to refund it (a stalled instance): the answer is served anyway, and logged.
 */
async function settleHold(
  deps: Deps,
  input: BilledInput,
  charge: Charge,
  details: Record<string, unknown>,
) {
  const id = charge.consumptionId;
  try {
    const refunded = await settleHoldAndLog(deps.db, {
      settle: settleHoldCte(id),
      log: billingLogCte({
        userId: input.userId,
        event: input.operation,
        ip: input.ip ?? null,
        metadata: { credits: charge.cost, consumption_id: id, ...details },
      }),
      refunded: consumptionRefundedSql(id),
    });
    if (refunded) {
      deps.logger.warn("billed work answered after its hold was refunded", {
        operation: input.operation,
        consumption_id: id,
      });
    }
  } finally {
    if (id) deps.work.untrackHold(id);
  }
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

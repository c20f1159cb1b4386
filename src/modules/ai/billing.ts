import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import { type Charge, type CreditOperation, chargeCredits, refundCharge } from "../credits/service";

/** The providers an operation cannot run without: checked before anything is charged. */
export type ProviderNeed = "llm" | "translation" | "discovery";

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
 * changes nothing). A usage-log row records each billed operation with what it cost and which
 * provider served it (spec: usage logs are written on billable operations).
 * When the operation's providers are not configured at all, it answers 503 before charging,
 * so an unconfigured deployment leaves no charge-and-refund pairs in the ledger.
 */
export async function billed<T>(
  deps: Deps,
  input: BilledInput,
  work: (charge: Charge) => Promise<T>,
  describe: (result: T) => Record<string, unknown> = () => ({}),
): Promise<{ result: T; charge: Charge }> {
  if (input.requires) await requireProviders(deps, input.requires);
  const charge = await chargeCredits(deps, {
    userId: input.userId,
    operation: input.operation,
    ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
  });
  let result: T;
  try {
    result = await work(charge);
  } catch (error) {
    await refundCharge(deps, charge, `${input.operation} failed`);
    throw error;
  }
  await queryRows(
    deps.db,
    sql`insert into usage_logs (user_id, event, ip, metadata)
        values (${input.userId}, ${input.operation}, ${input.ip ?? null},
          ${JSON.stringify({ credits: charge.cost, consumption_id: charge.consumptionId, ...describe(result) })}::jsonb)`,
  );
  return { result, charge };
}

/** One query: whether any enabled provider of each kind exists. */
async function requireProviders(deps: Deps, need: ProviderNeed): Promise<void> {
  const [row] = await queryRows<{ llm: boolean; mt: boolean; search: boolean }>(
    deps.db,
    sql`select exists (select 1 from ai_providers where enabled and kind = 'llm') as llm,
          exists (select 1 from ai_providers where enabled and kind = 'mt') as mt,
          exists (select 1 from search_providers where enabled) as search`,
  );
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

import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { type Charge, type CreditOperation, chargeCredits, refundCharge } from "../credits/service";

export interface BilledInput {
  userId: string;
  operation: CreditOperation;
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
 */
export async function billed<T>(
  deps: Deps,
  input: BilledInput,
  work: (charge: Charge) => Promise<T>,
  describe: (result: T) => Record<string, unknown> = () => ({}),
): Promise<{ result: T; charge: Charge }> {
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

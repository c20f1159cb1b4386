import { ApiError } from "../../http/errors";
import type { Deps } from "../../ports";
import { deleteExpiredQuotes, insertQuote } from "./queries";
import { availableCredits, type CreditOperation, getBalance } from "./service";

/**
 * Price first (issue #24, ADR 0108): POST /credits/quote prices a billable operation before it
 * runs; the route called with the quote's id charges exactly its credits, once, before
 * QUOTE_TTL_MS has passed (credits/service.ts chargeCredits, in the charge's own statement).
 */

/** How long a quote holds. */
const QUOTE_TTL_MS = 10 * 60_000;
/** Expired quotes are kept this long (a late charge gets 409 quote_expired, not 404), then go. */
const QUOTE_KEPT_MS = 24 * 3600_000;

export interface QuoteAnswer {
  quote_id: string;
  operation: CreditOperation;
  credits: number;
  balance: number;
  sufficient: boolean;
  expires_at: string;
}

/**
 * Prices `operation` for the caller. Today the price is the operation's configured cost
 * (`credits.costs`), whatever the input; the input is taken (and must be an object) so that a
 * price by size can come without changing the contract. `sufficient` says whether the caller
 * can spend that much now (the balance, within their monthly limit).
 */
export async function quoteOperation(
  deps: Deps,
  userId: string,
  input: { operation: CreditOperation; input: Record<string, unknown> },
): Promise<QuoteAnswer> {
  const now = deps.clock.now();
  const row = await insertQuote(deps.db, {
    id: deps.ids.uuid(),
    userId,
    operation: input.operation,
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + QUOTE_TTL_MS).toISOString(),
    purgeBefore: new Date(now.getTime() - QUOTE_KEPT_MS).toISOString(),
  });
  if (!row) throw new ApiError(503, "This operation has no price configured");
  const wallet = await getBalance(deps, userId);
  const available = availableCredits(wallet.balance, wallet.member_limit, wallet.member_used_month);
  return {
    quote_id: row.id,
    operation: input.operation,
    credits: row.credits,
    balance: wallet.balance,
    sufficient: row.credits <= available,
    expires_at: new Date(row.expires_at).toISOString(),
  };
}

/** Scheduled (purgeExpired): quotes expired for over a day are deleted. */
export async function purgeExpiredQuotes(deps: Deps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - QUOTE_KEPT_MS).toISOString();
  return deleteExpiredQuotes(deps.db, { before });
}

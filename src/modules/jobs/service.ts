import type { Deps } from "../../ports";
import type { VerifiedDelivery } from "./qstash";
import { deleteDelivery, insertDelivery } from "./queries";

/** Past the JWT's expiry the signature check alone refuses a replay; a minute covers clock skew. */
const KEEP_PAST_EXPIRY_MS = 60_000;

/**
 * Records a verified delivery by its JWT id, in one statement; false when it was already on
 * record (a replay of a captured delivery). Rows past their expiry are swept a few at a time by
 * the same statement.
 */
export async function claimDelivery(
  deps: Deps,
  delivery: VerifiedDelivery,
  messageId: string | undefined,
): Promise<boolean> {
  const now = deps.clock.now();
  const keepUntil = new Date(
    Math.max(delivery.expiresAt.getTime(), now.getTime()) + KEEP_PAST_EXPIRY_MS,
  );
  const rows = await insertDelivery(deps.db, {
    jti: delivery.jti,
    messageId: messageId?.slice(0, 200) ?? null,
    keepUntil: keepUntil.toISOString(),
    now: now.toISOString(),
  });
  return rows.length > 0;
}

/**
 * Forgets a delivery whose job failed: the answer is not 2xx, QStash retries it, and that retry
 * (or this very delivery again) must run the job rather than be taken for a replay.
 */
export async function releaseDelivery(deps: Deps, jti: string): Promise<void> {
  await deleteDelivery(deps.db, { jti });
}

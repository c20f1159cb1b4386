import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { qstashDeliveries } from "../../db/schema";
import type { Deps } from "../../deps";
import type { VerifiedDelivery } from "./qstash";

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
  const rows = await queryRows<{ jti: string }>(
    deps.db,
    sql`with swept as (
        delete from ${qstashDeliveries} where ${qstashDeliveries.jti} in (
          select ${qstashDeliveries.jti} from ${qstashDeliveries}
          where ${qstashDeliveries.expiresAt} < ${now.toISOString()}::timestamptz limit 100)),
      fresh as (
        insert into ${qstashDeliveries} (jti, message_id, expires_at, created_at)
        values (${delivery.jti}, ${messageId?.slice(0, 200) ?? null},
          ${keepUntil.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
        on conflict (jti) do nothing
        returning jti)
      select jti from fresh`,
  );
  return rows.length > 0;
}

/**
 * Forgets a delivery whose job failed: the answer is not 2xx, QStash retries it, and that retry
 * (or this very delivery again) must run the job rather than be taken for a replay.
 */
export async function releaseDelivery(deps: Deps, jti: string): Promise<void> {
  await queryRows(
    deps.db,
    sql`delete from ${qstashDeliveries} where ${qstashDeliveries.jti} = ${jti}`,
  );
}

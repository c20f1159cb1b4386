import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { paymentNonces } from "../../../db/schema";

/** Deletes the payment callback nonces past their expiry (a daily task); how many went. */
export async function purgeExpiredNonces(db: Db, params: { now: string }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from ${paymentNonces}
                      where ${paymentNonces.expiresAt} <= ${params.now}::timestamptz
                      returning 1)
        select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}

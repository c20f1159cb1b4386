import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { qstashDeliveries } from "../../db/schema";
import { col, columnNames, type DbRow } from "../../db/sql";

/**
 * Records a delivery by its JWT id unless it is on record, sweeping up to 100 rows past their
 * expiry in the same statement; the row when it was recorded now.
 */
export async function insertDelivery(
  db: Db,
  params: { jti: string; messageId: string | null; keepUntil: string; now: string },
): Promise<Pick<DbRow<typeof qstashDeliveries>, "jti">[]> {
  const d = qstashDeliveries;
  return queryRows<Pick<DbRow<typeof d>, "jti">>(
    db,
    sql`with swept as (
        delete from ${d} where ${d.jti} in (
          select ${d.jti} from ${d}
          where ${d.expiresAt} < ${params.now}::timestamptz limit 100)),
      fresh as (
        insert into ${d} (${columnNames([d.jti, d.messageId, d.expiresAt, d.createdAt])})
        values (${params.jti}, ${params.messageId},
          ${params.keepUntil}::timestamptz, ${params.now}::timestamptz)
        on conflict (${col(d.jti)}) do nothing
        returning ${col(d.jti)})
      select jti from fresh`,
  );
}

export async function deleteDelivery(db: Db, params: { jti: string }): Promise<void> {
  await queryRows(
    db,
    sql`delete from ${qstashDeliveries} where ${qstashDeliveries.jti} = ${params.jti}`,
  );
}

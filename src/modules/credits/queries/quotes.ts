import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { creditQuotes, orgMembers, systemConfig } from "../../../db/schema";
import { columnNames } from "../../../db/sql";

/** A quote as POST /credits/quote answers it (before the balance is added). */
export interface QuoteRow {
  id: string;
  operation: string;
  credits: number;
  expires_at: string | Date;
}

/**
 * Prices `operation` for the member and records the quote, one statement: its credits are the
 * `credits.costs` system config's now; the member's quotes expired before `purgeBefore` go in
 * the same statement (delete on write keeps the table to the live ones). Undefined when no cost
 * is configured for the operation, or the user is in no organisation.
 */
export async function insertQuote(
  db: Db,
  params: {
    id: string;
    userId: string;
    operation: string;
    now: string;
    expiresAt: string;
    purgeBefore: string;
  },
): Promise<QuoteRow | undefined> {
  const q = creditQuotes;
  const [row] = await queryRows<QuoteRow>(
    db,
    sql`with purged as (
        delete from ${creditQuotes} where ${q.userId} = ${params.userId}::uuid
          and ${q.expiresAt} < ${params.purgeBefore}::timestamptz),
      price as (
        select (${systemConfig.value} ->> ${params.operation}::text)::int as credits
        from ${systemConfig} where ${systemConfig.key} = 'credits.costs')
      insert into ${creditQuotes} (${columnNames([q.id, q.orgId, q.userId, q.operation, q.credits, q.expiresAt, q.createdAt])})
      select ${params.id}::uuid, m.org_id, ${params.userId}::uuid, ${params.operation},
        price.credits, ${params.expiresAt}::timestamptz, ${params.now}::timestamptz
      from price join ${orgMembers} m on m.user_id = ${params.userId}::uuid
      where price.credits is not null
      returning ${q.id}, ${q.operation}, ${q.credits}, ${q.expiresAt}`,
  );
  return row;
}

/** Scheduled: deletes the quotes expired before `before`; how many went. */
export async function deleteExpiredQuotes(db: Db, params: { before: string }): Promise<number> {
  const rows = await queryRows(
    db,
    sql`delete from ${creditQuotes} where ${creditQuotes.expiresAt} < ${params.before}::timestamptz
        returning 1`,
  );
  return rows.length;
}

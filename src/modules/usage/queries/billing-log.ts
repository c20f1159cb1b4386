import { type SQL, sql } from "drizzle-orm";
import { usageLogs } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * CTE `logged`: the usage-log row of a billed operation, for the statement that settles its
 * hold (ai/billing.ts), so the log is written with the settlement or not at all.
 */
export function billingLogCte(input: {
  userId: string;
  event: string;
  ip: string | null;
  metadata: Record<string, unknown>;
}): SQL {
  const u = usageLogs;
  return sql`logged as (
    insert into ${u} (${col(u.userId)}, ${col(u.event)}, ${col(u.ip)}, ${col(u.metadata)})
    values (${input.userId}, ${input.event}, ${input.ip}, ${JSON.stringify(input.metadata)}::jsonb))`;
}

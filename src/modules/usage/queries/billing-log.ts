import { type SQL, sql } from "drizzle-orm";
import { defineCte } from "../../../db/cte";
import { usageLogs } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * CTE `logged`: the usage-log row of a billed operation, for the statement that settles its
 * hold (ai/billing.ts), so the log is written with the settlement or not at all; `when`, a
 * boolean SQL over the statement's other CTEs, must hold for the row to be written.
 */
export function billingLogCte(input: {
  userId: string;
  event: string;
  ip: string | null;
  metadata: Record<string, unknown>;
  when: SQL;
}): SQL {
  const u = usageLogs;
  return billingLog.as(sql`
    insert into ${u} (${col(u.userId)}, ${col(u.event)}, ${col(u.ip)}, ${col(u.metadata)})
    select ${input.userId}, ${input.event}, ${input.ip}, ${JSON.stringify(input.metadata)}::jsonb
    where ${input.when}`);
}

/** The CTE billingLogCte defines (read by no one: named so no other fragment takes its name). */
const billingLog = defineCte("logged");

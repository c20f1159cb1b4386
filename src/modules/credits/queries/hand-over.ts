import { type SQL, sql } from "drizzle-orm";
import { creditHolds } from "../../../db/schema";

/**
 * A background job takes its charge over from the request's hold (agent runs, discovery jobs):
 * the hold goes in the statement that records the job, so from then on a crash is the job's to
 * recover (it refunds when it fails), not the hold's. A CTE body for that statement.
 */
export function holdHandOver(consumptionId: string | null): SQL {
  return sql`delete from ${creditHolds} where ${creditHolds.consumptionId} = ${consumptionId}::uuid`;
}

import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { renewRunLeasesSql } from "../agent/queries/lease-renewal";
import { renewHoldsSql, renewKeysSql } from "../credits/queries";

/**
 * Renews, in one statement, the heartbeat of the holds `holdIds`, the lease of the in-flight
 * keys `keyPairs` of instance `instanceId` and of the runs `runPairs` (their owners'
 * fragments). Nothing to renew: no statement.
 */
export async function renewWork(
  db: Db,
  params: {
    holdIds: string[];
    keyPairs: [string, string][];
    runPairs: [string, number][];
    instanceId: string;
    holdsAt: SQL;
    keysUntil: SQL;
    runsUntil: SQL;
  },
): Promise<boolean> {
  const parts: SQL[] = [];
  if (params.holdIds.length > 0) parts.push(renewHoldsSql(params.holdIds, params.holdsAt));
  if (params.keyPairs.length > 0) {
    parts.push(renewKeysSql(params.keyPairs, params.instanceId, params.keysUntil));
  }
  if (params.runPairs.length > 0) parts.push(renewRunLeasesSql(params.runPairs, params.runsUntil));
  if (parts.length === 0) return false;
  await db.execute(sql`with ${sql.join(parts, sql`, `)} select 1`);
  return true;
}

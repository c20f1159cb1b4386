import { type SQL, sql } from "drizzle-orm";
import { agentPipelines } from "../../../db/schema";
import { callerOrgSql } from "../../../db/scope";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the agent pipelines
 * of the guests in `guestIds` (a parenthesised subquery of user ids) to the account `userId` and its
 * organisation.
 */
export function agentGuestMove(guestIds: SQL, userId: string): SQL {
  return sql`moved_agent_pipelines as (
      update ${agentPipelines} set ${col(agentPipelines.userId)} = ${userId}::uuid,
        ${col(agentPipelines.orgId)} = ${callerOrgSql(userId)}
      where ${agentPipelines.userId} in ${guestIds})`;
}

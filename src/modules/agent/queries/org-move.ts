import { type SQL, sql } from "drizzle-orm";
import { agentPipelines } from "../../../db/schema";

/**
 * CTE of bring_data (the orgs module's acceptance statement): every agent pipeline of
 * organisation `from` moved to organisation `to` when `when` holds (the invitation was used).
 * Holders stay.
 */
export function agentOrgMove(from: SQL, to: SQL, when: SQL): SQL {
  return sql`org_moved_agent_pipelines as (
      update ${agentPipelines} set org_id = ${to}
      where org_id = ${from} and ${when} returning 1)`;
}

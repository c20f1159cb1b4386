import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { agentPipelines } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * The instance heartbeat's CTE `runs` (modules/inflight): extends to `until` the lease of the
 * running runs `pairs` ([pipeline id, attempts]) still claimed with that fencing token.
 */
export function renewRunLeasesSql(pairs: [string, number][], until: SQL): SQL {
  const p = alias(agentPipelines, "p");
  return sql`runs as (update ${agentPipelines} ${p} set ${col(p.leaseUntil)} = ${until}
        from jsonb_array_elements(${JSON.stringify(pairs)}::jsonb) e
        where ${p.id} = (e ->> 0)::uuid and ${p.attempts} = (e ->> 1)::int and ${p.status} = 'running'
        returning 1)`;
}

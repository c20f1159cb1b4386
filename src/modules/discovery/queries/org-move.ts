import { type SQL, sql } from "drizzle-orm";
import { discoveryJobs, discoveryRecords } from "../../../db/schema";

/**
 * CTEs of bring_data (the orgs module's acceptance statement): every discovery record and job
 * of organisation `from` moved to organisation `to` when `when` holds (the invitation was
 * used). Holders stay.
 */
export function discoveryOrgMove(from: SQL, to: SQL, when: SQL): SQL {
  return sql`org_moved_discovery_records as (
      update ${discoveryRecords} set org_id = ${to}
      where org_id = ${from} and ${when} returning 1),
    org_moved_discovery_jobs as (
      update ${discoveryJobs} set org_id = ${to}
      where org_id = ${from} and ${when} returning 1)`;
}

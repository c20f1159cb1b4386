import { type SQL, sql } from "drizzle-orm";
import { defineCte } from "../../../db/cte";
import { customerOwnershipEvents, customers, followupLogs } from "../../../db/schema";
import { heldSince } from "./pool";

/**
 * The customers' side of a membership change, as CTEs of the orgs module's statements (one
 * statement with the membership it goes with): a leaving member's customers handed over, and a
 * joining member's records brought into the new organisation (bring_data).
 */

/** The customers memberLeavesCtes handed over (orgs counts them). */
export const handedOverCustomers = defineCte("moved", ["id"]);

/**
 * CTEs of a member `userId` leaving organisation `orgId`: the customers they hold there go to
 * `toUserId` (null: the pool), with one `member_removed` ownership event each; the new
 * holder's recycle clock starts now, as on any change of holder.
 */
export function memberLeavesCtes(p: {
  orgId: string;
  userId: string;
  toUserId: string | null;
  actorId: string;
  reason: string;
  at: SQL;
}): SQL {
  return sql`${handedOverCustomers.as(sql`
        update ${customers} c set user_id = ${p.toUserId}::uuid,
          ${heldSince(sql`${p.toUserId}::uuid`, p.at)}, updated_at = ${p.at}
        where c.org_id = ${p.orgId}::uuid and c.user_id = ${p.userId}::uuid
        returning c.id`)},
      events as (
        insert into ${customerOwnershipEvents}
          (org_id, customer_id, from_user_id, to_user_id, action, reason, actor_id, at)
        select ${p.orgId}::uuid, ${handedOverCustomers.col("id")}, ${p.userId}::uuid, ${p.toUserId}::uuid,
          'member_removed', ${p.reason}, ${p.actorId}::uuid, ${p.at}
        from ${handedOverCustomers}
      )`;
}

/**
 * CTEs of bring_data: every customer, follow-up log and ownership event of organisation `from`
 * moved to organisation `to`, when `when` holds (the invitation was used). Holders stay.
 */
export function customersOrgMove(from: SQL, to: SQL, when: SQL): SQL {
  return sql`org_moved_customers as (
      update ${customers} set org_id = ${to}
      where org_id = ${from} and ${when} returning 1),
    org_moved_followup_logs as (
      update ${followupLogs} set org_id = ${to}
      where org_id = ${from} and ${when} returning 1),
    moved_history as (
      update ${customerOwnershipEvents} set org_id = ${to}
      where org_id = ${from} and ${when} returning 1)`;
}

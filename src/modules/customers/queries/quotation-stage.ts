import { type SQL, sql } from "drizzle-orm";
import { type CustomerStatus, customers } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * The stages a quotation moves its customer to (docs/customers.md, ADR 0106): a sent quotation
 * makes the customer `quoted`, an accepted one `won`. Forward only: a customer already at the
 * stage or past it keeps its stage. `lost` and `dormant` are off the ladder: a quotation sent to
 * or accepted by such a customer is the business coming back, so they move too.
 */
const MOVED_FROM: Record<"quoted" | "won", readonly CustomerStatus[]> = {
  quoted: ["new", "contacted", "negotiating", "lost", "dormant"],
  won: ["new", "contacted", "negotiating", "quoted", "lost", "dormant"],
};

/**
 * The update moving the customers `customerIds` (a subquery of ids) to `stage` when they are
 * behind it: a fragment for the quotations module's status change, embedded in its statement
 * (table owners, docs/adding-a-module.md).
 */
export function customerStageForward(customerIds: SQL, stage: "quoted" | "won"): SQL {
  const c = customers;
  return sql`update ${c} set ${col(c.status)} = ${stage}, ${col(c.updatedAt)} = now()
    where ${c.id} in (${customerIds}) and ${c.status} in ${MOVED_FROM[stage]}
    returning ${c.id}`;
}

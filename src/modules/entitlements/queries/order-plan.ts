import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { subscriptionPlans, systemConfig } from "../../../db/schema";
import { columnList, type DbRow } from "../../../db/sql";

type OrderablePlan = Pick<
  DbRow<typeof subscriptionPlans>,
  "id" | "code" | "name" | "currency" | "monthly_price"
> & {
  /** `plans.yearly_discount` (system config), 0.15 when unset. */
  discount: number;
};

/** An active plan by id or code, as a payment order prices it (payments: a subscription). */
export async function getActivePlan(
  db: Db,
  params: { id?: string; code?: string },
): Promise<OrderablePlan | undefined> {
  const p = subscriptionPlans;
  const c = systemConfig;
  const where = params.id ? sql`${p.id} = ${params.id}` : sql`${p.code} = ${params.code ?? ""}`;
  const [row] = await queryRows<OrderablePlan>(
    db,
    sql`select ${columnList([p.id, p.code, p.name, p.currency, p.monthlyPrice])},
          coalesce((select (${c.value} #>> '{}')::float8 from ${c}
                    where ${c.key} = 'plans.yearly_discount'), 0.15) as discount
        from ${p} where ${where} and ${p.active}`,
  );
  return row;
}

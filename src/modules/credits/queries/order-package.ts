import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { creditPackages } from "../../../db/schema";
import { columnList, type DbRow } from "../../../db/sql";

/** An active credit package as a payment order prices it (payments: a credit purchase). */
export async function getActivePackage(
  db: Db,
  params: { id: string },
): Promise<
  Pick<DbRow<typeof creditPackages>, "id" | "name" | "credits" | "price" | "currency"> | undefined
> {
  const p = creditPackages;
  const [row] = await queryRows<
    Pick<DbRow<typeof creditPackages>, "id" | "name" | "credits" | "price" | "currency">
  >(
    db,
    sql`select ${columnList([p.id, p.name, p.credits, p.price, p.currency])} from ${p}
        where ${p.id} = ${params.id} and ${p.active}`,
  );
  return row;
}

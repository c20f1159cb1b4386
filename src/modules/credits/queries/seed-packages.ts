import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { creditPackages } from "../../../db/schema";
import { DEFAULT_PACKAGES } from "../catalog";

/** The default packages, after migrations: only into an empty catalogue (no natural key). */
export async function seedDefaultPackages(db: Db): Promise<void> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from ${creditPackages}`,
  );
  if (row?.count === 0) await db.insert(creditPackages).values([...DEFAULT_PACKAGES]);
}

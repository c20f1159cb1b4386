import { sql } from "drizzle-orm";
import { DEFAULT_PACKAGES, DEFAULT_PLANS } from "../modules/credits/catalog";
import { DEFAULT_SYSTEM_CONFIG } from "../modules/system-config/defaults";
import { type Db, queryRows } from "./client";
import { creditPackages, subscriptionPlans, systemConfig } from "./schema";

/** Inserts default rows that are missing; never touches a value an admin has changed. */
export async function seedDefaults(db: Db): Promise<void> {
  await db
    .insert(systemConfig)
    .values(Object.entries(DEFAULT_SYSTEM_CONFIG).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing({ target: systemConfig.key });
  await db
    .insert(subscriptionPlans)
    .values(DEFAULT_PLANS.map((plan) => ({ ...plan, features: [...plan.features] })))
    .onConflictDoNothing({ target: subscriptionPlans.code });
  // Packages have no natural key: seed them only into an empty catalogue.
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from credit_packages`,
  );
  if (row?.count === 0) await db.insert(creditPackages).values([...DEFAULT_PACKAGES]);
}

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import { creditPackages, subscriptionPlans, systemConfig } from "../db/schema";
import { systemClock } from "../lib/clock";
import { DEFAULT_PACKAGES, DEFAULT_PLANS } from "../modules/credits/catalog";
import { seedRatesSnapshot } from "../modules/exchange/service";
import { DEFAULT_SYSTEM_CONFIG } from "../modules/system-config/defaults";

/**
 * The modules' default rows, inserted after every migration (src/db/migrate.ts takes this as its
 * seed, so src/db imports no module): the ones missing only, never a value an admin changed.
 */
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
  // The shipped snapshot's day, if not stored yet: the fallback when no refresh has run.
  await seedRatesSnapshot({ db, clock: systemClock });
}

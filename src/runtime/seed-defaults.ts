import type { Db } from "../db/client";
import { systemClock } from "../lib/clock";
import { seedDefaultPackages } from "../modules/credits/queries/seed-packages";
import { seedDefaultPlans } from "../modules/entitlements/queries/seed-plans";
import { seedRatesSnapshot } from "../modules/exchange/service";
import { seedConfigDefaults } from "../modules/system-config/queries";

/**
 * The modules' default rows, inserted after every migration (src/db/migrate.ts takes this as its
 * seed, so src/db imports no module): the ones missing only, never a value an admin changed.
 */
export async function seedDefaults(db: Db): Promise<void> {
  await seedConfigDefaults(db);
  await seedDefaultPlans(db);
  await seedDefaultPackages(db);
  // The shipped snapshot's day, if not stored yet: the fallback when no refresh has run.
  await seedRatesSnapshot({ db, clock: systemClock });
}

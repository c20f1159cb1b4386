import type { Db } from "../../../db/client";
import { subscriptionPlans } from "../../../db/schema";
import { DEFAULT_PLAN_SEATS } from "../../../lib/plans";
import { DEFAULT_PLANS } from "../../credits/catalog";

/** The default plans that are missing (never one an admin changed), after migrations. */
export async function seedDefaultPlans(db: Db): Promise<void> {
  await db
    .insert(subscriptionPlans)
    .values(
      DEFAULT_PLANS.map((plan) => ({
        ...plan,
        features: [...plan.features],
        limits: { ...plan.limits, seats: DEFAULT_PLAN_SEATS[plan.code] },
      })),
    )
    .onConflictDoNothing({ target: subscriptionPlans.code });
}

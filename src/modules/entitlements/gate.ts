import type { EntitlementGate } from "../../ports";
import { describePlanLimit } from "./limits";
import { checkFeature } from "./service";

/** What src/http asks of the plans, as deps.entitlements (see buildDeps). */
export const entitlementGate: EntitlementGate = {
  checkFeature,
  describePlanLimit: (deps, hit) => describePlanLimit(deps.db, hit),
};

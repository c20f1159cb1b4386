import { notFound, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { pgErrorCode } from "../../lib/db-errors";
import type { Deps } from "../../ports";
import { type Actor, changedFields, patchSets, rethrowUnique } from "../admin/writes";
import {
  insertPlan,
  listAllPlans,
  PLAN_COLUMNS,
  type PlanValues,
  planFeaturesSet,
  planLimitsSet,
  updatePlanAudited,
} from "../entitlements/queries";
import { yearlyPrice } from "./catalog";
import {
  adjustBalanceAudited,
  insertPackage,
  listAllPackages,
  listConsumptionsPage,
  listCreditUsersPage,
  PACKAGE_COLUMNS,
  type PackageValues,
  updatePackageAudited,
} from "./queries";
import { insufficientCredits } from "./service";

export async function listCreditUsers(
  deps: Deps,
  query: { page: number; size: number; q?: string },
) {
  const { rows, total } = await listCreditUsersPage(deps.db, query);
  return {
    items: rows.map((r) => ({ ...r, updated_at: iso(r.updated_at)! })),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function listConsumptions(
  deps: Deps,
  query: { page: number; size: number; user_id?: string; operation?: string; status?: string },
) {
  const { rows, total } = await listConsumptionsPage(deps.db, {
    userId: query.user_id,
    operation: query.operation,
    status: query.status,
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((r) => ({
      ...r,
      created_at: iso(r.created_at)!,
      refunded_at: iso(r.refunded_at),
    })),
    total,
    page: query.page,
    size: query.size,
  };
}

type PackageInput = PackageValues;

const packageOut = <R extends { created_at: string; updated_at: string }>(r: R) => ({
  ...r,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export async function adminListPackages(deps: Deps) {
  const rows = await listAllPackages(deps.db);
  return rows.map(packageOut);
}

export async function createPackage(deps: Deps, actor: Actor, input: PackageInput) {
  const row = await insertPackage(deps.db, { actor, values: input, fields: changedFields(input) });
  return packageOut(row!);
}

/** Changes only the fields sent, with the audit row of what changed in the same statement. */
export async function updatePackage(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: Partial<PackageInput>,
  action = "credit_package.update",
) {
  const row = await updatePackageAudited(deps.db, {
    actor,
    id,
    sets: patchSets(PACKAGE_COLUMNS, patch),
    now: nowIso(deps),
    action,
    fields: changedFields(patch),
  });
  if (!row) throw notFound("Package not found");
  return packageOut(row);
}

/** Orders keep their own copy of what was bought, so a package is retired, never deleted. */
export async function retirePackage(deps: Deps, actor: Actor, id: string) {
  return updatePackage(deps, actor, id, { active: false }, "credit_package.retire");
}

type PlanInput = PlanValues;

const planOut = <R extends { monthly_price: number; created_at: string; updated_at: string }>({
  discount,
  ...r
}: R & { discount: number }) => ({
  ...r,
  yearly_price: yearlyPrice(r.monthly_price, discount),
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export async function adminListPlans(deps: Deps) {
  const rows = await listAllPlans(deps.db);
  return rows.map(planOut);
}

export async function createPlan(deps: Deps, actor: Actor, input: PlanInput) {
  const row = await insertPlan(deps.db, {
    actor,
    values: input,
    fields: changedFields(input),
  }).catch(rethrowUnique(`A plan with code ${input.code} exists`));
  return planOut(row!);
}

/** Changes only the fields sent (its code is permanent), audited in the same statement. */
export async function updatePlan(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: Partial<Omit<PlanInput, "code">>,
  action = "credit_plan.update",
) {
  const sets = patchSets(PLAN_COLUMNS, patch);
  if (patch.features) sets.push(planFeaturesSet(patch.features));
  if (patch.limits) sets.push(planLimitsSet(patch.limits));
  const row = await updatePlanAudited(deps.db, {
    actor,
    id,
    sets,
    now: nowIso(deps),
    action,
    fields: changedFields(patch),
  });
  if (!row) throw notFound("Plan not found");
  return planOut(row);
}

/** Subscribers keep a retired plan until their period ends. */
export async function retirePlan(deps: Deps, actor: Actor, id: string) {
  return updatePlan(deps, actor, id, { active: false }, "credit_plan.retire");
}

/**
 * Admin correction with its audit row, in one statement: a positive delta adds a non-expiring
 * lot (credit_grant), a negative one deducts (credit_charge; 402 when not covered, nothing
 * written). The audit row shows the balance before and after and the reason; an unknown user
 * is 404 with nothing written.
 */
export async function adminAdjustCredits(
  deps: Deps,
  actor: Actor,
  input: { userId: string; delta: number; reason: string },
) {
  const row = await adjustBalanceAudited(deps.db, {
    actor,
    userId: input.userId,
    delta: input.delta,
    reason: input.reason,
    now: nowIso(deps),
  }).catch((error: unknown) => {
    // 22003: the balance would pass its integer column; the statement wrote nothing.
    if (pgErrorCode(error) !== "22003") throw error;
    const msg = "The balance would exceed its maximum";
    throw validationError([{ loc: ["body", "delta"], msg, type: "too_big" }], msg);
  });
  if (!row?.found) throw notFound("User not found");
  if (!row.ok) throw insufficientCredits(-input.delta, row.balance ?? 0);
  return { balance: row.balance!, ledgerId: row.ledger_id };
}

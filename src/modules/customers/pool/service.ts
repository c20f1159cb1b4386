import { withTransaction } from "../../../db/client";
import { conflict, forbidden, notFound, validationError } from "../../../http/errors";
import { iso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import { parseOrgSettings } from "../../orgs/settings";
import type { OwnershipEventRow } from "../queries/pool";
import * as queries from "../queries/pool";
import { statusesLeadingTo } from "../service";
import type { BulkInput, ReleaseInput, TransferInput } from "./schemas";

const DAY_MS = 86_400_000;

const eventOut = (r: OwnershipEventRow) => ({
  from_user_id: r.from_user_id,
  to_user_id: r.to_user_id,
  action: r.action,
  reason: r.reason,
  actor_id: r.actor_id,
  at: iso(r.at),
});

const changeOut = (id: string, event: OwnershipEventRow) => ({
  id,
  user_id: event.to_user_id,
  event: eventOut(event),
});

const noSuchCustomer = () => notFound("Customer not found");

/**
 * Pool -> caller. The caller's membership row is locked first (one transaction, two statements):
 * a statement reads what was committed when it began, so only a claim that starts after the
 * caller's previous one committed counts it, and two claims of one member never pass a cap
 * together. The claim itself, with every rule and its event, is the second statement.
 */
export async function claimCustomer(deps: Deps, userId: string, id: string) {
  const now = deps.clock.now();
  const dayStart = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const outcome = await withTransaction(deps.db, async (tx) => {
    const member = await queries.lockMember(tx, userId);
    if (!member) return null;
    const { pool } = parseOrgSettings(member.settings);
    return queries
      .claimCustomer(tx, {
        userId,
        id,
        now: now.toISOString(),
        dayStart: dayStart.toISOString(),
        maxClaimsPerDay: pool.max_claims_per_day,
        maxCustomersPerMember: pool.max_customers_per_member,
        reclaimCooldownDays: pool.reclaim_cooldown_days,
      })
      .then((row) => ({ row, pool }));
  });
  if (!outcome) throw noSuchCustomer();
  const { row, pool } = outcome;
  switch (row.verdict) {
    case "not_found":
      throw noSuchCustomer();
    case "yours":
      throw conflict("You already hold this customer");
    case "held":
      throw conflict("Another member holds this customer: a manager transfers it instead");
    case "max_claims_per_day":
      throw conflict(
        `pool.max_claims_per_day (${pool.max_claims_per_day}) reached: ${row.claims_today} claims today (UTC)`,
      );
    case "max_customers_per_member":
      throw conflict(
        `pool.max_customers_per_member (${pool.max_customers_per_member}) reached: you hold ${row.held}`,
      );
    case "reclaim_cooldown_days": {
      const from = new Date(
        new Date(row.left_at!).getTime() + pool.reclaim_cooldown_days! * DAY_MS,
      ).toISOString();
      throw conflict(
        `pool.reclaim_cooldown_days (${pool.reclaim_cooldown_days}): you gave this customer up less than ${pool.reclaim_cooldown_days} days ago; claimable again from ${from}`,
      );
    }
    case "ok":
      if (!row.event) throw conflict("Another member claimed this customer a moment ago");
      return changeOut(id, row.event);
  }
}

/** Holder (or a manager and up) -> pool, with the reason in the history. */
export async function releaseCustomer(deps: Deps, userId: string, id: string, input: ReleaseInput) {
  const row = await queries.changeHolder(deps.db, {
    userId,
    id,
    now: deps.clock.now().toISOString(),
    action: "release",
    to: null,
    reason: input.reason,
  });
  if (!row.found) throw noSuchCustomer();
  if (row.holder === null) throw conflict("This customer is already in the pool");
  if (!row.event) throw conflict("This customer changed holder a moment ago");
  return changeOut(id, row.event);
}

/** Managers and up: to any member of the organisation (from the pool too). */
export async function transferCustomer(
  deps: Deps,
  userId: string,
  id: string,
  input: TransferInput,
) {
  const row = await queries.changeHolder(deps.db, {
    userId,
    id,
    now: deps.clock.now().toISOString(),
    action: "transfer",
    to: input.to_user_id,
    reason: input.reason ?? null,
  });
  if (!row.allowed) throw forbidden("Transferring a customer needs the manager role");
  if (!row.found) throw noSuchCustomer();
  if (!row.target_ok) throw notAMember();
  if (row.holder === input.to_user_id) throw conflict("That member already holds this customer");
  if (!row.event) throw conflict("This customer changed holder a moment ago");
  return changeOut(id, row.event);
}

const notAMember = () =>
  validationError([
    {
      loc: ["body", "to_user_id"],
      msg: "Not a member of your organisation",
      type: "value_error",
    },
  ]);

export async function listOwnership(
  deps: Deps,
  userId: string,
  id: string,
  query: { page: number; size: number },
) {
  const { found, items, total } = await queries.listOwnership(deps.db, { userId, id, ...query });
  if (!found) throw noSuchCustomer();
  return { items: items.map(eventOut), total, page: query.page, size: query.size };
}

const missing = (field: string, msg: string) =>
  validationError([{ loc: ["body", field], msg, type: "missing" }]);

function bulkAction(input: BulkInput): queries.BulkAction {
  switch (input.action) {
    case "release":
      if (!input.reason) throw missing("reason", "release needs a reason");
      return { action: "release", reason: input.reason };
    case "transfer":
      if (!input.to_user_id) throw missing("to_user_id", "transfer needs to_user_id");
      return { action: "transfer", to: input.to_user_id, reason: input.reason ?? null };
    case "set_status": {
      const target = input.status;
      if (!target) throw missing("status", "set_status needs a status");
      return { action: "set_status", status: target, allowedFrom: statusesLeadingTo(target) };
    }
    case "delete":
      return { action: "delete" };
  }
}

/**
 * One action over up to 1,000 customers, each judged by what the caller may do with it
 * (docs/teams.md): done or refused with why. A transfer by a member is refused as a whole (403),
 * as is a new holder from outside the organisation (422).
 */
export async function bulkCustomers(deps: Deps, userId: string, input: BulkInput) {
  const outcome = await queries.bulkChange(deps.db, {
    userId,
    ids: input.ids,
    now: deps.clock.now().toISOString(),
    ...bulkAction(input),
  });
  if (!outcome.allowed) throw forbidden("Transferring customers needs the manager role");
  if (!outcome.target_ok) throw notAMember();
  return {
    done: outcome.rows.filter((r) => r.done).map((r) => r.id),
    refused: outcome.rows
      .filter((r) => !r.done)
      .map((r) => ({ id: r.id, detail: r.refusal ?? "changed a moment ago" })),
  };
}

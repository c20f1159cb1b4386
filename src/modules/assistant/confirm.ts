import { withTransaction } from "../../db/client";
import type { AiActionType } from "../../db/schema";
import { fromJsonb } from "../../db/sql";
import { notFound, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { createCustomer, logFollowup } from "../customers/service";
import { createQuotation } from "../quotations/service";
import { actionBody } from "./actions";
import { type ActionRow, getActionRow, markActionPerformed } from "./queries/actions";
import type { ActionConfirmInput } from "./schemas";

const actionNotFound = () => notFound("Action not found");

/** jsonb arrives parsed from node-postgres and PGlite, as text from some drivers. */

/** What each action does, through its owning service: the answer of that route and its id. */
const PERFORMERS: Record<
  AiActionType,
  (
    deps: Deps,
    userId: string,
    body: Record<string, unknown>,
  ) => Promise<{ id: string; result: Record<string, unknown> }>
> = {
  async add_customer(deps, userId, body) {
    const customer = await createCustomer(
      deps,
      userId,
      body as Parameters<typeof createCustomer>[2],
    );
    return { id: customer.id, result: customer };
  },
  async log_followup(deps, userId, body) {
    const { customer_id, ...followup } = body as { customer_id: string };
    const result = await logFollowup(
      deps,
      userId,
      customer_id,
      followup as Parameters<typeof logFollowup>[3],
    );
    return { id: result.followup.id, result };
  },
  async create_quotation(deps, userId, body) {
    const quotation = await createQuotation(
      deps,
      userId,
      body as Parameters<typeof createQuotation>[2],
    );
    return { id: quotation.id, result: quotation };
  },
};

function replayOf(row: ActionRow) {
  return {
    action_id: row.id,
    type: row.type,
    performed_at: iso(row.performed_at!),
    result_id: row.result_id!,
    result: fromJsonb(row.result!),
    replayed: true,
  };
}

/**
 * Performs an action the assistant proposed to the caller, once (ADR 0113): the proposal's data
 * with `edits` over it must pass the owning route's body schema (else 422, nothing done); then,
 * in one transaction, the action row is locked, the owning service performs it and the outcome
 * is recorded on the row. A confirm of an action already performed (also one that waited on the
 * lock of a concurrent confirm) answers that first outcome with `replayed: true` and does
 * nothing. Another user's action, a colleague's included, is a 404.
 */
export async function confirmAction(
  deps: Deps,
  userId: string,
  id: string,
  input: ActionConfirmInput,
) {
  const row = await getActionRow(deps.db, { userId, id });
  if (!row) throw actionNotFound();
  if (row.performed_at) return replayOf(row);
  const body = actionBody(row.type, fromJsonb(row.data), input.edits);
  if (!body.success) {
    throw validationError(
      body.error.issues.map((issue) => ({
        loc: ["body", "edits", ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
        msg: issue.message,
        type: issue.code,
      })),
      "The action's data with the edits is not a valid request of its route",
    );
  }
  return withTransaction(deps.db, async (tx) => {
    const locked = await getActionRow(tx, { userId, id, lock: true });
    if (!locked) throw actionNotFound();
    if (locked.performed_at) return replayOf(locked);
    const txDeps = { ...deps, db: tx };
    const done = await PERFORMERS[locked.type](
      txDeps,
      userId,
      body.data as Record<string, unknown>,
    );
    const at = nowIso(deps);
    await markActionPerformed(tx, { id, at, resultId: done.id, result: done.result });
    return {
      action_id: id,
      type: locked.type,
      performed_at: iso(at),
      result_id: done.id,
      result: done.result,
      replayed: false,
    };
  });
}

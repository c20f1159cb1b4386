import { validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { listAuditLogPage } from "./queries";

export interface AuditLogQuery {
  page: number;
  size: number;
  actor_id?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  start_date?: string;
  end_date?: string;
}

/** Admin writes, newest first, filtered by actor, action, target and UTC days. */
export async function listAuditLog(deps: Deps, query: AuditLogQuery) {
  if (query.start_date && query.end_date && query.start_date > query.end_date) {
    throw validationError([
      { loc: ["query", "start_date"], msg: "start_date is after end_date", type: "value_error" },
    ]);
  }
  const { rows, total } = await listAuditLogPage(deps.db, {
    page: query.page,
    size: query.size,
    actorId: query.actor_id,
    action: query.action,
    targetType: query.target_type,
    targetId: query.target_id,
    startDate: query.start_date,
    endDate: query.end_date,
  });
  return {
    items: rows.map((r) => ({ ...r, changes: r.changes ?? {}, created_at: iso(r.created_at)! })),
    total,
    page: query.page,
    size: query.size,
  };
}

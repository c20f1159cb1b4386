import { sql } from "drizzle-orm";
import { queryRows } from "../../src/db/client";
import type { Deps } from "../../src/ports";

export interface AuditRow {
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
  request_id: string | null;
  ip: string | null;
}

/** The admin_audit_log rows of one action on one target, oldest first. */
export function auditRows(deps: Deps, action: string, targetId: string) {
  return queryRows<AuditRow>(
    deps.db,
    sql`select actor_id, action, target_type, target_id, changes, request_id, ip
        from admin_audit_log where action = ${action} and target_id = ${targetId}
        order by created_at, id`,
  );
}

/** Every audit row written for one request id. */
export function auditRowsOfRequest(deps: Deps, requestId: string) {
  return queryRows<AuditRow>(
    deps.db,
    sql`select actor_id, action, target_type, target_id, changes, request_id, ip
        from admin_audit_log where request_id = ${requestId} order by created_at, id`,
  );
}

/** A fresh id of the caller's, sent as X-Request-Id (the row keeps it as client_request_id). */
export const newRequestId = () => `t-${crypto.randomUUID()}`;

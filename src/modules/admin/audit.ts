import { type SQL, sql } from "drizzle-orm";
import { selectPage } from "../../db/page";
import type { Deps } from "../../deps";
import { validationError } from "../../http/errors";
import { iso } from "../../lib/clock";

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

interface AuditLogRow {
  id: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
  request_id: string | null;
  ip: string | null;
  created_at: Date;
}

/**
 * Admin writes, newest first, filtered by actor, action, target and UTC days; each filter has an
 * index that leads with it and ends with created_at. The actor's e-mail is read for the page's
 * rows only.
 */
export async function listAuditLog(deps: Deps, query: AuditLogQuery) {
  if (query.start_date && query.end_date && query.start_date > query.end_date) {
    throw validationError([
      { loc: ["query", "start_date"], msg: "start_date is after end_date", type: "value_error" },
    ]);
  }
  const filters: SQL[] = [sql`true`];
  if (query.actor_id) filters.push(sql`a.actor_id = ${query.actor_id}`);
  if (query.action) filters.push(sql`a.action = ${query.action}`);
  if (query.target_type) filters.push(sql`a.target_type = ${query.target_type}`);
  if (query.target_id) filters.push(sql`a.target_id = ${query.target_id}`);
  if (query.start_date) {
    filters.push(sql`a.created_at >= (${query.start_date}::date)::timestamp at time zone 'UTC'`);
  }
  if (query.end_date) {
    filters.push(sql`a.created_at < (${query.end_date}::date + 1)::timestamp at time zone 'UTC'`);
  }
  const { rows, total } = await selectPage<AuditLogRow>(deps.db, {
    columns: sql`a.id, a.actor_id, (select u.email from users u where u.id = a.actor_id)
      as actor_email, a.action, a.target_type, a.target_id, a.changes, a.request_id, a.ip,
      a.created_at`,
    from: sql`admin_audit_log a`,
    where: sql.join(filters, sql` and `),
    order: sql`a.created_at desc, a.id desc`,
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((r) => ({ ...r, changes: r.changes ?? {}, created_at: iso(r.created_at)! })),
    total,
    page: query.page,
    size: query.size,
  };
}

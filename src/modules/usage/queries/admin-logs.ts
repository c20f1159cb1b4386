import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client";
import { selectPage } from "../../../db/page";
import { usageLogs, users } from "../../../db/schema";
import type { DbRow } from "../../../db/sql";

/** A usage-log row as the admin list shows it, with the user's e-mail. */
type AdminUsageLogRow = Pick<
  DbRow<typeof usageLogs>,
  "id" | "user_id" | "event" | "ip" | "metadata" | "created_at"
> & { email: DbRow<typeof users>["email"] };

/**
 * Usage logs newest first, filtered by user, event and UTC days (admin's GET /admin/usage-logs).
 * The e-mail is read for the page's rows only; the total counts usage_logs alone.
 */
export function listUsageLogsPage(
  db: Db,
  query: {
    page: number;
    size: number;
    userId?: string;
    event?: string;
    startDate?: string;
    endDate?: string;
  },
) {
  const l = alias(usageLogs, "l");
  const u = alias(users, "u");
  const filters: SQL[] = [sql`true`];
  if (query.userId) filters.push(sql`${l.userId} = ${query.userId}`);
  if (query.event) filters.push(sql`${l.event} = ${query.event}`);
  if (query.startDate) {
    filters.push(sql`${l.createdAt} >= (${query.startDate}::date)::timestamp at time zone 'UTC'`);
  }
  if (query.endDate) {
    filters.push(sql`${l.createdAt} < (${query.endDate}::date + 1)::timestamp at time zone 'UTC'`);
  }
  return selectPage<AdminUsageLogRow>(db, {
    columns: sql`${l.id}, ${l.userId}, (select ${u.email} from ${users} ${u} where ${u.id} = ${l.userId})
      as email, ${l.event}, ${l.ip}, ${l.metadata}, ${l.createdAt}`,
    from: sql`${usageLogs} ${l}`,
    where: sql.join(filters, sql` and `),
    order: sql`${l.createdAt} desc, ${l.id} desc`,
    page: query.page,
    size: query.size,
  });
}

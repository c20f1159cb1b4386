import { type SQL, sql } from "drizzle-orm";
import type { Cte } from "../../../db/cte";
import { usageLogs } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * The usage-log row of a sign-in (register, login, guest_login, wechat_login), as the body of a
 * CTE of the statement that opens the session: one row per user in `users` (a row source with
 * column `id`), so the log is written with the session or not at all.
 */
export function sessionLogInsert(users: Cte<string, "id">, event: string, ip: string): SQL {
  const u = usageLogs;
  return sql`insert into ${u} (${col(u.userId)}, ${col(u.event)}, ${col(u.ip)})
    select ${users.col("id")}, ${event}, ${ip} from ${users}`;
}

import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "./client";

/**
 * Rows a task statement locks at most: a statement holds its locks until it commits, so a
 * batch bounds how long (and how many) users' own writes can wait on a task.
 */
export const TASK_BATCH_SIZE = 500;

/**
 * Runs a per-user SQL function over every due user in batches of TASK_BATCH_SIZE, in id order,
 * resuming after the last user of the previous batch, and adds up what it returns.
 * `dueUsers(after)` selects `user_id` (distinct, `user_id > after`, ordered, limited to
 * TASK_BATCH_SIZE); `perUser` is the function call over `due.user_id`, returning an integer.
 */
export async function sumOverUserBatches(
  db: Db,
  dueUsers: (after: SQL) => SQL,
  perUser: SQL,
): Promise<{ users: number; total: number }> {
  const sum = { users: 0, total: 0 };
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const [row] = await queryRows<{ users: number; total: number; last: string | null }>(
      db,
      sql`select count(*)::int as users, coalesce(sum(done.amount), 0)::int as total,
            (array_agg(done.user_id order by done.user_id desc))[1] as last
          from (select due.user_id, ${perUser} as amount
                from (${dueUsers(sql`${after}::uuid`)}) due) done`,
    );
    sum.users += row?.users ?? 0;
    sum.total += row?.total ?? 0;
    if (!row?.last || row.users < TASK_BATCH_SIZE) return sum;
    after = row.last;
  }
}

import { type Column, type SQL, sql, type Table } from "drizzle-orm";
import { type Db, queryRows } from "./client";
import { col } from "./sql";

/**
 * Background work leased to one worker at a time (agent runs, discovery jobs): a row is
 * `queued`, then `running` under a lease (`lease_until`) by the worker that claimed it, and
 * every write of that worker is fenced by the `attempts` value it claimed with, so a worker that
 * stalled past its lease and was replaced can no longer write. The owning module keeps its
 * table's statements; these are the parts every leased table shares.
 */
export type LeasedTable = Table & {
  id: Column;
  status: Column;
  attempts: Column;
  leaseUntil: Column;
  startedAt: Column;
  updatedAt: Column;
  createdAt: Column;
};

/** What a worker holds after a claim: the row and the fencing token. */
export interface LeaseClaim {
  id: string;
  attempts: number;
}

/** The row is still the claimer's: running, with the attempts it claimed with. */
export function leaseOwned(table: LeasedTable, claim: LeaseClaim): SQL {
  return sql`${table.id} = ${claim.id} and ${table.status} = 'running' and ${table.attempts} = ${claim.attempts}`;
}

/**
 * Claims the row in one statement when it is queued, or running with an expired lease: it
 * becomes running under a new lease, with one more attempt (the new fencing token). `set` adds
 * assignments (`instance_id = ...`); `returning` is the select list. Undefined: nothing to
 * claim (finished, or held by a live lease).
 */
export async function claimLease<Row>(
  db: Db,
  table: LeasedTable,
  params: { id: string; now: string; leaseUntil: string; set?: SQL; returning: SQL },
): Promise<Row | undefined> {
  const { now } = params;
  const t = table;
  const [row] = await queryRows<Row>(
    db,
    sql`update ${t}
        set ${col(t.status)} = 'running', ${col(t.attempts)} = ${t.attempts} + 1,
          ${col(t.leaseUntil)} = ${params.leaseUntil}::timestamptz,${params.set ? sql` ${params.set},` : sql``}
          ${col(t.startedAt)} = coalesce(${t.startedAt}, ${now}::timestamptz),
          ${col(t.updatedAt)} = ${now}::timestamptz
        where ${t.id} = ${params.id}
          and (${t.status} = 'queued' or (${t.status} = 'running' and ${t.leaseUntil} < ${now}::timestamptz))
        returning ${params.returning}`,
  );
  return row;
}

/**
 * Recovery for rows nobody is working on: leases that expired (their worker died) and rows
 * queued since before `staleQueued` (a lost dispatch), at most `limit`, oldest first (one
 * query on the table's partial index over open rows; cheap when there is nothing to do). Each
 * is handed to `redeliver` in turn (published again, or run here); a failing one is reported to
 * `onError` and the rest go on.
 */
export async function sweepLeases(
  db: Db,
  table: LeasedTable,
  params: {
    now: string;
    staleQueued: string;
    limit: number;
    redeliver: (id: string) => Promise<"published" | "ran" | "skipped">;
    onError: (id: string, error: unknown) => void;
  },
): Promise<{ found: number; published: number; ran: number }> {
  const t = table;
  const due = await queryRows<{ id: string }>(
    db,
    sql`select ${t.id} from ${t}
        where ${t.status} in ('queued', 'running')
          and ((${t.status} = 'running' and ${t.leaseUntil} < ${params.now}::timestamptz)
            or (${t.status} = 'queued' and ${t.createdAt} < ${params.staleQueued}::timestamptz))
        order by ${t.createdAt} limit ${params.limit}`,
  );
  let published = 0;
  let ran = 0;
  for (const { id } of due) {
    try {
      const outcome = await params.redeliver(id);
      if (outcome === "published") published += 1;
      if (outcome === "ran") ran += 1;
    } catch (error) {
      params.onError(id, error);
    }
  }
  return { found: due.length, published, ran };
}

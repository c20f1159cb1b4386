import type { Db } from "../../../db/client";
import { type DueCustomer, dueBatch, type RecycleCursor, type RecycleRule } from "../queries/pool";

/** Where the next page starts: the walk (a slice of the rules) and the cursor inside it. */
interface PageAt {
  from: number;
  after: RecycleCursor | null;
}

/**
 * The due customers of `rules`, a page at a time, in walks of `perWalk` organisations (see
 * dueBatch). Each page's read is sent as soon as the previous page is in, so it runs on another
 * connection while the caller recycles that previous page: the reads lock nothing and share no
 * rows with the page being recycled (the cursor is past them; every recycle re-checks its row as
 * it locks it), and a run's time is its recycles', not its recycles' and reads' together.
 */
export async function* duePages(
  db: Db,
  p: { rules: RecycleRule[]; cutoff: string; perWalk: number; pageSize: number },
): AsyncGenerator<DueCustomer[]> {
  const read = async (at: PageAt) => {
    const rules = p.rules.slice(at.from, at.from + p.perWalk);
    const page = await dueBatch(db, {
      rules,
      cutoff: p.cutoff,
      after: at.after,
      limit: p.pageSize,
    });
    const next: PageAt | null =
      page.rows.length === p.pageSize
        ? { from: at.from, after: page.next }
        : at.from + p.perWalk < p.rules.length
          ? { from: at.from + p.perWalk, after: null }
          : null;
    return { rows: page.rows, next };
  };
  let reading = p.rules.length > 0 ? read({ from: 0, after: null }) : null;
  while (reading) {
    const { rows, next } = await reading;
    reading = next ? read(next) : null;
    // A read that fails while the caller is still on this page fails at the next await, not as
    // an unhandled rejection in between (nor if the caller stops first).
    reading?.catch(() => {});
    yield rows;
  }
}

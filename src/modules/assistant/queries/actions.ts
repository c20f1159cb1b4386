import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { aiActions } from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";

/** The SQL of ai_actions (owned by assistant): proposals of the assistant, performed once. */

const a = aiActions;

export type ActionRow = Pick<
  DbRow<typeof aiActions>,
  "id" | "type" | "data" | "performed_at" | "result_id" | "result"
>;

/**
 * One action of the caller (a colleague's or another user's is not found). `lock`: inside the
 * confirm's transaction, a row lock, so a concurrent confirm waits for this one's commit and
 * then sees it performed.
 */
export async function getActionRow(
  db: Db,
  input: { userId: string; id: string; lock?: boolean },
): Promise<ActionRow | undefined> {
  const [row] = await queryRows<ActionRow>(
    db,
    sql`select ${a.id}, ${a.type}, ${a.data}, ${a.performedAt}, ${a.resultId}, ${a.result}
      from ${a}
      where ${a.id} = ${input.id}::uuid and ${a.userId} = ${input.userId}::uuid
      ${input.lock ? sql`for update` : sql``}`,
  );
  return row;
}

/** Records the outcome on the action (in the transaction that performed it). */
export async function markActionPerformed(
  db: Db,
  input: { id: string; at: string; resultId: string; result: unknown },
) {
  await queryRows(
    db,
    sql`update ${a} set ${col(a.performedAt)} = ${input.at}::timestamptz,
        ${col(a.resultId)} = ${input.resultId}::uuid,
        ${col(a.result)} = ${JSON.stringify(input.result)}::jsonb
      where ${a.id} = ${input.id}::uuid and ${a.performedAt} is null`,
  );
}

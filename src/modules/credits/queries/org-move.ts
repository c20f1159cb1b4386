import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";

/**
 * bring_data (issue #22): what is left in `fromOrgId`'s wallet moves to `toOrgId`'s in the name
 * of the member `userId`, one statement (credit_move_org, ADR 0098): an 'org_transfer' ledger
 * row on each side (out on the old organisation, in on the new one, both naming the member),
 * allowance credits keeping their expiry. `moved` 0: nothing was left (no rows written). Run it
 * in the transaction that moves the membership, so the credits follow the member or neither.
 */
export async function moveOrgCredits(
  db: Db,
  params: { userId: string; fromOrgId: string; toOrgId: string; now: string },
): Promise<{ moved: number }> {
  const [row] = await queryRows<{ moved: number }>(
    db,
    sql`select credit_move_org(${params.userId}::uuid, ${params.fromOrgId}::uuid,
        ${params.toOrgId}::uuid, ${params.now}::timestamptz) as moved`,
  );
  return { moved: row?.moved ?? 0 };
}

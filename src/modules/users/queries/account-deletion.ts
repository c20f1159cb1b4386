import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { orgMembers, users } from "../../../db/schema";
import { col } from "../../../db/sql";
import { type Actor, auditCte } from "../../admin/queries/audit";
import { accountDeletionCtes as agentRows } from "../../agent/queries/account-deletion";
import { accountDeletionCtes as aiCallRows } from "../../ai/queries";
import { accountDeletionCtes as assistantRows } from "../../assistant/queries/account-deletion";
import {
  accountDeletionCtes as authRows,
  deletedAccountSessions,
} from "../../auth/queries/account-deletion";
import { accountDeletionCtes as customerRows } from "../../customers/queries/account-deletion";
import { accountDeletionCtes as discoveryRows } from "../../discovery/queries/account-deletion";
import { accountDeletionCtes as glossaryRows } from "../../glossary/queries";
import { accountDeletionCtes as marketingRows } from "../../marketing/queries/account-deletion";
import { accountDeletionCtes as notificationRows } from "../../notifications/queries/account-deletion";
import { accountDeletionCtes as orgRows } from "../../orgs/queries/account-deletion";
import { accountDeletionCtes as productRows } from "../../products/queries/account-deletion";
import { accountDeletionCtes as quotationRows } from "../../quotations/queries/account-deletion";
import { accountDeletionCtes as translationRows } from "../../translate/queries/account-deletion";
import { accountDeletionCtes as usageRows } from "../../usage/queries/account-deletion";

const m = alias(orgMembers, "m");
const others = alias(orgMembers, "others");

/**
 * Deletes an account in one statement (DELETE /api/v1/users/me, ADR 0107), only while it is
 * the sole member of its organisation (the service has made it leave a shared one first): the
 * work records of that organisation and the account's own rows go through each owner's
 * fragment, every session ends, and the users row stays, anonymised (no address, password,
 * name, WeChat id; status disabled), because the credit ledger, the payments, the
 * subscriptions and the invoices are money records that name it and must outlive it. The
 * audit row says who and when. Undefined when the account is not (or no longer) alone in its
 * organisation, or gone: nothing was written.
 */
export async function deleteAccount(
  db: Db,
  p: { userId: string; at: string; actor: Actor },
): Promise<{ sessions: string[] } | undefined> {
  const at = sql`${p.at}::timestamptz`;
  const org = sql`(select org_id from sole)`;
  const user = sql`(select ${p.userId}::uuid from sole)`;
  const [row] = await queryRows<{ sessions: string[] | null }>(
    db,
    sql`with sole as (
          select ${m.orgId} as org_id from ${orgMembers} ${m}
          join ${users} on ${users.id} = ${m.userId} and ${users.status} = 'active'
          where ${m.userId} = ${p.userId}
            and not exists (select 1 from ${orgMembers} ${others}
              where ${others.orgId} = ${m.orgId} and ${others.userId} <> ${m.userId})
          for update of ${m}),
        ${customerRows({ userIds: user, orgIds: org })},
        ${quotationRows({ userIds: user, orgIds: org })},
        ${productRows({ userIds: user, orgIds: org })},
        ${discoveryRows({ userIds: user, orgIds: org })},
        ${agentRows({ userIds: user, orgIds: org })},
        ${assistantRows({ userIds: user, orgIds: org })},
        ${marketingRows({ userIds: user, orgIds: org })},
        ${translationRows({ userIds: user, orgIds: org })},
        ${glossaryRows({ orgIds: org })},
        ${notificationRows({ userIds: user, orgIds: org })},
        ${usageRows({ userIds: user, orgIds: org })},
        ${aiCallRows({ userIds: user, orgIds: org })},
        ${orgRows({ orgIds: org, at })},
        ${authRows({ userIds: user, at })},
        gone as (
          update ${users} set ${col(users.email)} = null, ${col(users.emailVerifiedAt)} = null,
            ${col(users.passwordHash)} = null, ${col(users.name)} = null, ${col(users.company)} = null,
            ${col(users.phone)} = null, ${col(users.country)} = null, ${col(users.language)} = null,
            ${col(users.wechatOpenid)} = null, ${col(users.wechatUnionid)} = null,
            ${col(users.status)} = 'disabled',
            ${col(users.referralCode)} = 'deleted-' || replace(${col(users.id)}::text, '-', ''),
            ${col(users.loginAddresses)} = '{}', ${col(users.failedLoginCount)} = 0,
            ${col(users.lastFailedLoginAt)} = null, ${col(users.updatedAt)} = ${at}
          where ${users.id} in ${user}
          returning ${col(users.id)}),
        ${auditCte(p.actor, {
          action: "user.delete",
          target: "user",
          rows: sql`gone`,
          kind: "custom",
          fields: [],
          at,
        })}
      select (select array_agg(family_id) from ${deletedAccountSessions}) as sessions
      from gone`,
  );
  if (!row) return undefined;
  return { sessions: row.sessions ?? [] };
}

import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import {
  agentPipelines,
  aiActions,
  aiCalls,
  aiConversations,
  aiMessages,
  certifications,
  creditLedger,
  customers,
  discoveryRecords,
  followupLogs,
  invoices,
  marketingContents,
  notifications,
  orgMembers,
  orgs,
  paymentTransactions,
  products,
  quotationItems,
  quotations,
  subscriptions,
  translations,
  usageLogs,
  users,
} from "../../../db/schema";
import type { Actor } from "../../admin/queries/audit";
import { auditCte } from "../../admin/queries/audit";

/** Columns an export never carries: secrets and the login throttle's own bookkeeping. */
const HIDDEN = sql.raw(
  ["password_hash", "login_addresses", "failed_login_count", "last_failed_login_at"]
    .map((c) => ` - '${c}'`)
    .join(""),
);

/** Rows of `table` whose `owner` column is the account, oldest first, as a jsonb array. */
const rowsOf = (table: PgTable, owner: AnyPgColumn, created: AnyPgColumn, userId: string): SQL =>
  sql`(select coalesce(jsonb_agg(to_jsonb(x) order by x.${sql.identifier(created.name)}), '[]'::jsonb)
      from ${table} x where x.${sql.identifier(owner.name)} = ${userId}::uuid)`;

/**
 * Every record the account holds (GET /api/v1/users/me/export, ADR 0107), one jsonb array per
 * kind, read in one statement with its audit row: the profile and membership, the customers
 * they hold, the follow-ups, products and quotations (with their lines) they made, their
 * credit ledger, payments, subscriptions and invoices, and what the AI, marketing, discovery and
 * agent features keep of theirs. Read-only over the other modules' tables, all keyed by the
 * caller's own id; written to the audit log only.
 */
export async function exportAccount(db: Db, p: { userId: string; actor: Actor }) {
  const { userId } = p;
  const [row] = await queryRows<{ data: Record<string, unknown[]> | string }>(
    db,
    sql`with profile as (select ${users.id} from ${users} where ${users.id} = ${userId}),
        ${auditCte(p.actor, {
          action: "user.export",
          target: "user",
          rows: sql`profile`,
          kind: "custom",
          fields: [],
        })}
      select jsonb_build_object(
        'profile', (select jsonb_agg(to_jsonb(u)${HIDDEN}) from ${users} u where u.id = ${userId}::uuid),
        'organisation', (select jsonb_agg(jsonb_build_object('org_id', o.id, 'name', o.name,
            'role', m.role, 'joined_at', m.joined_at))
          from ${orgMembers} m join ${orgs} o on o.id = m.org_id where m.user_id = ${userId}::uuid),
        'customers', ${rowsOf(customers, customers.userId, customers.createdAt, userId)},
        'followups', ${rowsOf(followupLogs, followupLogs.userId, followupLogs.createdAt, userId)},
        'products', ${rowsOf(products, products.userId, products.createdAt, userId)},
        'quotations', ${rowsOf(quotations, quotations.userId, quotations.createdAt, userId)},
        'quotation_items', (select coalesce(jsonb_agg(to_jsonb(i) order by i.quotation_id, i.position), '[]'::jsonb)
          from ${quotationItems} i join ${quotations} q on q.id = i.quotation_id
          where q.user_id = ${userId}::uuid),
        'credit_ledger', ${rowsOf(creditLedger, creditLedger.userId, creditLedger.createdAt, userId)},
        'payments', ${rowsOf(paymentTransactions, paymentTransactions.userId, paymentTransactions.createdAt, userId)},
        'subscriptions', ${rowsOf(subscriptions, subscriptions.userId, subscriptions.createdAt, userId)},
        'invoices', ${rowsOf(invoices, invoices.userId, invoices.createdAt, userId)},
        'certifications', ${rowsOf(certifications, certifications.userId, certifications.createdAt, userId)},
        'notifications', ${rowsOf(notifications, notifications.userId, notifications.createdAt, userId)},
        'marketing_contents', ${rowsOf(marketingContents, marketingContents.userId, marketingContents.createdAt, userId)},
        'translations', ${rowsOf(translations, translations.userId, translations.createdAt, userId)},
        'ai_conversations', ${rowsOf(aiConversations, aiConversations.userId, aiConversations.createdAt, userId)},
        'ai_messages', ${rowsOf(aiMessages, aiMessages.userId, aiMessages.createdAt, userId)},
        'ai_actions', ${rowsOf(aiActions, aiActions.userId, aiActions.createdAt, userId)},
        'discovery_records', ${rowsOf(discoveryRecords, discoveryRecords.userId, discoveryRecords.createdAt, userId)},
        'agent_pipelines', ${rowsOf(agentPipelines, agentPipelines.userId, agentPipelines.createdAt, userId)},
        'usage_logs', ${rowsOf(usageLogs, usageLogs.userId, usageLogs.createdAt, userId)},
        'ai_calls', ${rowsOf(aiCalls, aiCalls.userId, aiCalls.createdAt, userId)}
      ) as data
      from profile`,
  );
  if (!row) return undefined;
  return typeof row.data === "string"
    ? (JSON.parse(row.data) as Record<string, unknown[]>)
    : row.data;
}

import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/client";
import { defineCte } from "../../db/cte";
import { selectPage } from "../../db/page";
import {
  aiCalls,
  aiProviders,
  creditConsumptions,
  orgMembers,
  type QuotaPeriod,
  translationQuotas,
} from "../../db/schema";
import { callerOrgSql, callerSeesAllSql } from "../../db/scope";
import { col, type DbRow } from "../../db/sql";
import { type Actor, type AuditedWrite, auditCte, lockBefore } from "../admin/queries/audit";
import { settledHold } from "../credits/queries/ai-holds";

/**
 * The SQL of translation_quotas (owned by ai): per-provider translation quotas, a day row
 * and/or a month row per provider, each `char_limit` characters per UTC period. A provider
 * without enabled rows is unlimited.
 */

const t = translationQuotas;
const q = alias(translationQuotas, "q");

/** The period's length and the start of the current period at `now`, in SQL. */
const periodLength = sql`(case ${q.period} when 'day' then interval '1 day' else interval '1 month' end)`;
const currentStart = (now: string) =>
  sql`date_trunc(case ${q.period} when 'day' then 'day' else 'month' end, ${now}::timestamptz, 'UTC')`;

/**
 * Reserves `chars` characters on every enabled quota row of the provider, all or nothing, in
 * one statement: the rows are locked (`for update`, in id order so concurrent reservations
 * queue instead of deadlocking); a row whose period has ended rolls over (used 0, start = the
 * current UTC day or month); the characters are added to every row only if every row stays
 * within its limit. A concurrent reservation waits for the lock and then sees the committed
 * usage, so parallel requests cannot overshoot. Returns whether it was granted.
 */
export async function reserveQuotaChars(
  db: Db,
  input: { providerId: string; chars: number; at: string },
): Promise<boolean> {
  const { providerId, chars, at } = input;
  const [row] = await queryRows<{ granted: boolean }>(
    db,
    sql`with locked as (
        select ${q.id}, ${q.charLimit},
          case when ${q.periodStart} + ${periodLength} <= ${at}::timestamptz
            then 0 else ${q.charsUsed} end as used,
          case when ${q.periodStart} + ${periodLength} <= ${at}::timestamptz
            then ${currentStart(at)} else ${q.periodStart} end as start
        from ${t} ${q}
        where ${q.providerId} = ${providerId} and ${q.enabled}
        order by ${q.id}
        for update),
      verdict as (
        select coalesce(bool_and(used + ${chars}::int <= char_limit), true) as granted
        from locked),
      applied as (
        update ${t}
        set ${col(t.charsUsed)} = l.used + ${chars}::int, ${col(t.periodStart)} = l.start,
          ${col(t.updatedAt)} = ${at}::timestamptz
        from locked l, verdict v
        where ${t.id} = l.id and v.granted
        returning ${t.id})
      select granted from verdict`,
  );
  return row?.granted ?? false;
}

/**
 * Gives reserved characters back after the provider call failed. Only rows still in the period
 * the reservation was made in (`period_start <= reservedAt`) are touched: after a rollover the
 * new period does not owe anything. Never below 0.
 */
export async function releaseQuotaChars(
  db: Db,
  input: { providerId: string; chars: number; reservedAt: string; at: string },
): Promise<void> {
  await queryRows(
    db,
    sql`update ${t}
        set ${col(t.charsUsed)} = greatest(${t.charsUsed} - ${input.chars}::int, 0),
          ${col(t.updatedAt)} = ${input.at}::timestamptz
        where ${t.providerId} = ${input.providerId} and ${t.enabled}
          and ${t.periodStart} <= ${input.reservedAt}::timestamptz`,
  );
}

const periodEndOf = sql`(${q.periodStart} + case ${q.period} when 'day' then interval '1 day'
  else interval '1 month' end)`;

/** Of the quota rows that refused `chars` characters at `at`, the one freeing up first. */
export async function blockingQuota(
  db: Db,
  input: { providerIds: string[]; chars: number; at: string },
) {
  const ids = sql.join(
    input.providerIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const [row] = await queryRows<
    Pick<DbRow<typeof translationQuotas>, "char_limit" | "period"> & { resets_at: string }
  >(
    db,
    sql`select ${q.charLimit}, ${q.period},
          to_char(${periodEndOf} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as resets_at
        from ${t} ${q}
        where ${q.enabled} and ${q.providerId} in (${ids})
          and ${periodEndOf} > ${input.at}::timestamptz
          and ${q.charsUsed} + ${input.chars}::int > ${q.charLimit}
        order by ${periodEndOf}
        limit 1`,
  );
  return row;
}

// ---------------------------------------------------------------- admin

/** A quota as the admin sees it: with its provider and its use in the current period. */
export type QuotaRow = Pick<
  DbRow<typeof translationQuotas>,
  "id" | "provider_id" | "period" | "char_limit" | "chars_used" | "enabled"
> &
  Pick<DbRow<typeof translationQuotas>, "period_start" | "created_at" | "updated_at"> & {
    provider_name: DbRow<typeof aiProviders>["name"];
    tier: DbRow<typeof aiProviders>["kind"];
    remaining: number;
    resets_at: string;
  };

/** The start of the UTC day or month containing `at`. */
const periodStartAt = (period: SQL, at: string) =>
  sql`date_trunc(${period}, ${at}::timestamptz at time zone 'UTC') at time zone 'UTC'`;
const periodEnd = (start: SQL, period: SQL) =>
  sql`((${start} at time zone 'UTC') + ('1 ' || ${period})::interval) at time zone 'UTC'`;

const p = alias(aiProviders, "p");

/**
 * Quota rows `q` as shown at `now`, with their provider `p`: a stored period that has ended
 * reads as the current period with nothing used (the counter itself rolls over on the next use).
 */
function quotaSource(quotas: SQL, now: string) {
  return sql`${quotas} ${q} join ${aiProviders} ${p} on ${p.id} = ${q.providerId}
    cross join lateral (
      select ${periodEnd(sql`${q.periodStart}`, sql`${q.period}`)} <= ${now}::timestamptz as rolled) r
    cross join lateral (
      select case when r.rolled then ${periodStartAt(sql`${q.period}`, now)} else ${q.periodStart} end
        as period_start,
        case when r.rolled then 0 else ${q.charsUsed} end as chars_used) e`;
}

const QUOTA_COLUMNS = sql`${q.id}, ${q.providerId}, ${p.name} as provider_name, ${p.kind} as tier,
  ${q.period}, ${q.charLimit}, e.chars_used, greatest(${q.charLimit} - e.chars_used, 0) as remaining,
  e.period_start, ${periodEnd(sql`e.period_start`, sql`${q.period}`)} as resets_at, ${q.enabled},
  ${q.createdAt}, ${q.updatedAt}`;

export function listQuotaRows(
  db: Db,
  query: {
    page: number;
    size: number;
    provider_id?: string | undefined;
    period?: QuotaPeriod | undefined;
    enabled?: boolean | undefined;
    now: string;
  },
) {
  const filters: SQL[] = [sql`true`];
  if (query.provider_id) filters.push(sql`${q.providerId} = ${query.provider_id}`);
  if (query.period) filters.push(sql`${q.period} = ${query.period}`);
  if (query.enabled !== undefined) filters.push(sql`${q.enabled} = ${query.enabled}`);
  return selectPage<QuotaRow>(db, {
    columns: QUOTA_COLUMNS,
    from: quotaSource(sql`${t}`, query.now),
    where: sql.join(filters, sql` and `),
    order: sql`${p.name}, ${q.period}, ${q.id}`,
    page: query.page,
    size: query.size,
  });
}

export async function getQuotaRow(db: Db, input: { id: string; now: string }) {
  const [row] = await queryRows<QuotaRow>(
    db,
    sql`select ${QUOTA_COLUMNS} from ${quotaSource(sql`${t}`, input.now)}
        where ${q.id} = ${input.id}`,
  );
  return row;
}

type Audit = Omit<AuditedWrite, "rows">;

export async function insertQuota(
  db: Db,
  input: {
    provider_id: string;
    period: QuotaPeriod;
    char_limit: number;
    enabled: boolean;
    now: string;
    actor: Actor;
    audit: Audit;
  },
) {
  const { now } = input;
  const [row] = await queryRows<QuotaRow>(
    db,
    sql`with w as (
        insert into ${t} (${col(t.providerId)}, ${col(t.period)}, ${col(t.charLimit)},
          ${col(t.enabled)}, ${col(t.periodStart)}, ${col(t.createdAt)}, ${col(t.updatedAt)})
        values (${input.provider_id}, ${input.period}, ${input.char_limit}, ${input.enabled},
          ${periodStartAt(sql`${input.period}::text`, now)}, ${now}::timestamptz,
          ${now}::timestamptz)
        returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select ${QUOTA_COLUMNS} from ${quotaSource(sql`w`, now)}`,
  );
  return row!;
}

/** What an update of a quota sets: a patch, or a reset of the current period. */
export type QuotaChange =
  | {
      patch: {
        period?: QuotaPeriod | undefined;
        char_limit?: number | undefined;
        enabled?: boolean | undefined;
      };
    }
  | { reset: true };

function quotaSets(change: QuotaChange, now: string): SQL[] {
  if ("reset" in change) {
    return [
      sql`${col(t.charsUsed)} = 0, ${col(t.periodStart)} = ${periodStartAt(sql`${col(t.period)}`, now)},
      ${col(t.updatedAt)} = ${now}::timestamptz`,
    ];
  }
  const { patch } = change;
  const sets: SQL[] = [];
  if (patch.char_limit !== undefined) sets.push(sql`${col(t.charLimit)} = ${patch.char_limit}`);
  if (patch.enabled !== undefined) sets.push(sql`${col(t.enabled)} = ${patch.enabled}`);
  // A new period counts from the start of the current UTC period of that length.
  if (patch.period) {
    sets.push(sql`${col(t.period)} = ${patch.period},
      ${col(t.periodStart)} = case when ${t.period} = ${patch.period} then ${t.periodStart}
        else ${periodStartAt(sql`${patch.period}::text`, now)} end`);
  }
  sets.push(sql`${col(t.updatedAt)} = ${now}::timestamptz`);
  return sets;
}

export async function updateQuotaRow(
  db: Db,
  input: { id: string; change: QuotaChange; now: string; actor: Actor; audit: Audit },
) {
  const old = lockBefore(t, input.id);
  const [row] = await queryRows<QuotaRow>(
    db,
    sql`with w as (
        update ${t} set ${sql.join(quotaSets(input.change, input.now), sql`, `)} from ${old.from}
        where ${old.where}
        returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select ${QUOTA_COLUMNS} from ${quotaSource(sql`w`, input.now)}`,
  );
  return row;
}

/** Whether the quota existed. */
export async function deleteQuotaRow(
  db: Db,
  input: { id: string; actor: Actor; audit: Audit },
): Promise<boolean> {
  const rows = await queryRows<Pick<QuotaRow, "id">>(
    db,
    sql`with w as (delete from ${t} where ${t.id} = ${input.id} returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select w.${col(t.id)} from w`,
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------- billing

/**
 * One statement settling a billed operation: the hold goes (credits' fragment `settled`), and
 * unless the hold was already gone with its consumption refunded (a stalled instance whose
 * charge the sweep gave back), the usage log is written (usage's fragment `logged`) and the
 * request's answer kept under its Idempotency-Key (credits' fragment `kept`, when there is a
 * key). Answers whether the charge had been refunded. The fragments read the verdict as
 * `(select yes from refunded)`.
 */
export async function settleHoldAndLog(
  db: Db,
  input: { settle: SQL; refunded: SQL; log: SQL; keep?: SQL },
): Promise<boolean> {
  const [row] = await queryRows<{ refunded: boolean }>(
    db,
    sql`with ${input.settle},
      ${refundedVerdict.as(sql`select not ${settledHold.exists} and ${input.refunded} as yes`)},
      ${input.log}${input.keep ? sql`, ${input.keep}` : sql``}
      select (select ${refundedVerdict.col("yes")} from ${refundedVerdict}) as refunded`,
  );
  return row?.refunded ?? false;
}

/** settleHoldAndLog's verdict: whether the sweep refunded the charge before the settlement. */
const refundedVerdict = defineCte("refunded", ["yes"]);

/** The verdict of settleHoldAndLog's `refunded` CTE, for the fragments it runs. */
export const notRefundedSql = sql`not (select ${refundedVerdict.col("yes")} from ${refundedVerdict})`;

// ---------------------------------------------------------------- ai calls

const ac = aiCalls;

/**
 * Writes a task's attempts in one statement; each row's organisation is its user's, read in
 * the same statement (org_members' primary key). A consumption that is not (or no longer)
 * there is not linked rather than failing the row.
 */
export async function insertAiCalls(db: Db, rows: AiCallRow[]): Promise<void> {
  if (rows.length === 0) return;
  const cc = creditConsumptions;
  await queryRows(
    db,
    sql`insert into ${ac} (${col(ac.orgId)}, ${col(ac.userId)}, ${col(ac.task)}, ${col(ac.provider)},
          ${col(ac.model)}, ${col(ac.tokensIn)}, ${col(ac.tokensOut)}, ${col(ac.latencyMs)},
          ${col(ac.outcome)}, ${col(ac.credits)}, ${col(ac.consumptionId)}, ${col(ac.createdAt)})
        select (select ${orgMembers.orgId} from ${orgMembers} where ${orgMembers.userId} = x.user_id),
          x.user_id, x.task, x.provider, x.model, x.tokens_in, x.tokens_out, x.latency_ms,
          x.outcome, x.credits,
          (select ${cc.id} from ${cc} where ${cc.id} = x.consumption_id), x.created_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
          user_id uuid, task text, provider text, model text, tokens_in int, tokens_out int,
          latency_ms int, outcome text, credits int, consumption_id uuid, created_at timestamptz)`,
  );
}

/** A call as the lists show it: credits are 0 when its operation's charge was refunded. */
export type AiCallListRow = Pick<
  DbRow<typeof aiCalls>,
  | "id"
  | "org_id"
  | "user_id"
  | "task"
  | "provider"
  | "model"
  | "tokens_in"
  | "tokens_out"
  | "latency_ms"
  | "outcome"
  | "credits"
  | "consumption_id"
  | "created_at"
>;

/** One provider attempt as written (modules/ai/call-log.ts). */
export type AiCallRow = Omit<AiCallListRow, "id" | "org_id" | "created_at"> & {
  created_at: string;
};

const a = alias(aiCalls, "a");

/** A call's credits as they stand: none when its consumption was refunded. */
const creditsOf = (calls: typeof a) =>
  sql`case when ${calls.credits} > 0 and exists (select 1 from ${creditConsumptions}
      where ${creditConsumptions.id} = ${calls.consumptionId}
        and ${creditConsumptions.status} = 'refunded') then 0 else ${calls.credits} end`;

export interface AiCallFilters {
  task?: string | undefined;
  provider?: string | undefined;
  outcome?: string | undefined;
  /** UTC days, both included. */
  startDate?: string | undefined;
  endDate?: string | undefined;
}

function filterSql(f: AiCallFilters): SQL[] {
  const where: SQL[] = [];
  if (f.task) where.push(sql`${a.task} = ${f.task}`);
  if (f.provider) where.push(sql`${a.provider} = ${f.provider}`);
  if (f.outcome) where.push(sql`${a.outcome} = ${f.outcome}`);
  if (f.startDate) {
    where.push(sql`${a.createdAt} >= (${f.startDate}::date)::timestamp at time zone 'UTC'`);
  }
  if (f.endDate) {
    where.push(sql`${a.createdAt} < (${f.endDate}::date + 1)::timestamp at time zone 'UTC'`);
  }
  return where;
}

/**
 * AI calls newest first. With `viewer`, those the viewer may see (GET /ai/usage): their own,
 * and for a manager+ every call of their organisation (role and organisation read in the
 * statement, src/db/scope.ts); without, every call (GET /admin/ai-calls).
 */
export function listAiCallsPage(
  db: Db,
  query: AiCallFilters & { viewer?: string; page: number; size: number },
) {
  const where = filterSql(query);
  if (query.viewer) {
    where.push(sql`(${a.userId} = ${query.viewer}::uuid or (${callerSeesAllSql(query.viewer)}
      and ${a.orgId} = ${callerOrgSql(query.viewer)}))`);
  }
  return selectPage<AiCallListRow>(db, {
    columns: sql`${a.id}, ${a.orgId}, ${a.userId}, ${a.task}, ${a.provider}, ${a.model},
      ${a.tokensIn}, ${a.tokensOut}, ${a.latencyMs}, ${a.outcome}, ${creditsOf(a)} as credits,
      ${a.consumptionId}, ${a.createdAt}`,
    from: sql`${aiCalls} ${a}`,
    where: where.length > 0 ? sql.join(where, sql` and `) : sql`true`,
    order: sql`${a.createdAt} desc, ${a.id} desc`,
    page: query.page,
    size: query.size,
  });
}

/**
 * The admin stats' per-provider figures over [from, until) as a jsonb array, a scalar
 * subquery for modules/admin's statement: calls, failures (error, timeout, unusable; a stream
 * its client left is not the provider's) and their
 * rate, tokens, credits (what the answered operations cost, refunds excluded) and the mean
 * latency, busiest provider first.
 */
export function aiCallsByProviderJson(range: { from: SQL; until: SQL }): SQL {
  return sql`coalesce((select jsonb_agg(jsonb_build_object(
      'provider', provider, 'calls', calls, 'failures', failures,
      'failure_rate', round(failures::numeric / calls, 4), 'tokens_in', tokens_in,
      'tokens_out', tokens_out, 'credits', credits, 'avg_latency_ms', avg_latency_ms)
      order by calls desc, provider)
    from (select ${a.provider} as provider, count(*)::int as calls,
        (count(*) filter (where ${a.outcome} in ('error', 'timeout', 'unusable')))::int as failures,
        coalesce(sum(${a.tokensIn}), 0)::bigint as tokens_in,
        coalesce(sum(${a.tokensOut}), 0)::bigint as tokens_out,
        coalesce(sum(${creditsOf(a)}), 0)::bigint as credits,
        round(avg(${a.latencyMs}))::int as avg_latency_ms
      from ${aiCalls} ${a}
      where ${a.createdAt} >= ${range.from} and ${a.createdAt} < ${range.until}
      group by ${a.provider}) per_provider), '[]'::jsonb)`;
}

/**
 * An account's deletion (users/queries/account-deletion.ts, ADR 0107): the calls the account
 * made (`userIds`) and those of its personal organisation (`orgIds`) go with it.
 */
export function accountDeletionCtes(p: { userIds: SQL; orgIds: SQL }): SQL {
  return sql`ai_aiCalls as (delete from ${aiCalls} where ${aiCalls.userId} in ${p.userIds}
    or ${aiCalls.orgId} in ${p.orgIds} returning 1)`;
}

/**
 * Guest merge (auth's sign-in with a guest token, one statement): the calls of the guests in
 * `guestIds` move to the account `userId` and its organisation.
 */
export function aiCallsGuestMove(guestIds: SQL, userId: string): SQL {
  return sql`moved_ai_calls as (
      update ${aiCalls} set ${col(aiCalls.userId)} = ${userId}::uuid,
        ${col(aiCalls.orgId)} = (select ${orgMembers.orgId} from ${orgMembers}
          where ${orgMembers.userId} = ${userId}::uuid)
      where ${aiCalls.userId} in ${guestIds})`;
}

import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { claimLease, type LeaseClaim, leaseOwned, sweepLeases } from "../../../db/leased-jobs";
import { selectPage } from "../../../db/page";
import {
  discoveryJobs,
  discoveryRecords,
  searchProviders,
  systemConfig,
  users,
} from "../../../db/schema";
import { visibleTo } from "../../../db/scope";
import { col, columnList, columnNames, type DbRow } from "../../../db/sql";
import { escapeLike } from "../../../lib/sql-text";
import { holdHandOver } from "../../credits/queries/hand-over";
import { refundedCredits } from "../../credits/queries/refunded";

/**
 * The discovery module's statements: saved searches (discovery_records), background search
 * jobs (discovery_jobs) and the search providers a search runs over (search_providers; the
 * admin side writes them).
 */

/* ------------------------------------------------------------------ search providers */

export type SearchProviderRow = Pick<
  DbRow<typeof searchProviders>,
  "id" | "name" | "kind" | "base_url" | "api_key_ciphertext" | "timeout_ms"
>;

/**
 * The enabled search providers in the order they are tried, in one query: by their position in
 * system config `search.providers_order` (an entry names a provider, or a kind: `brave`,
 * `searxng`), providers not listed after those listed, then by name.
 */
export function listSearchProviderCandidates(db: Db): Promise<SearchProviderRow[]> {
  const p = alias(searchProviders, "p");
  const c = alias(systemConfig, "c");
  return queryRows<SearchProviderRow>(
    db,
    sql`with ordering as (
        select e.entry, e.n from ${systemConfig} ${c},
          jsonb_array_elements_text(
            case when jsonb_typeof(${c.value}) = 'array' then ${c.value} else '[]'::jsonb end)
            with ordinality as e(entry, n)
        where ${c.key} = 'search.providers_order')
      select ${columnList([p.id, p.name, p.kind, p.baseUrl, p.apiKeyCiphertext, p.timeoutMs])}
      from ${searchProviders} ${p}
      where ${p.enabled}
      order by (select min(o.n) from ordering o where o.entry = ${p.name})
          nulls last,
        (select min(o.n) from ordering o where o.entry = ${p.kind}) nulls last,
        ${p.name}`,
  );
}

/* ------------------------------------------------------------------ records */

const r = discoveryRecords;
const owner = alias(users, "owner");

/** The member's name, for a record or job's `owner_name`. */
const ownerName = (userId: AnyPgColumn) =>
  sql`(select ${owner.name} from ${users} ${owner} where ${owner.id} = ${userId}) as owner_name`;

export type RecordRow = Pick<
  DbRow<typeof discoveryRecords>,
  "id" | "product" | "market" | "companies" | "created_at" | "org_id" | "user_id"
> & { owner_name: string | null };

const RECORD_COLUMNS = sql`${columnList([r.id, r.product, r.market, r.companies, r.createdAt, r.orgId, r.userId])},
  ${ownerName(r.userId)}`;

// Records and jobs are the member's who ran them (docs/teams.md): a member sees and deletes
// their own, managers and above every one of the organisation (the scope in db/scope.ts).

interface RecordValues {
  /** The organisation to save into (a finished job's); default the user's current one. */
  orgId?: string;
  userId: string;
  product: string;
  market: string;
  companies: unknown[];
  now: string;
}

export async function insertRecord(db: Db, values: RecordValues): Promise<RecordRow> {
  const [row] = await queryRows<RecordRow>(
    db,
    sql`insert into ${r} (${columnNames([r.userId, r.product, r.market, r.companies, r.createdAt])})
        values (${values.userId}, ${values.product}, ${values.market},
          ${JSON.stringify(values.companies)}::jsonb, ${values.now}::timestamptz)
        returning ${RECORD_COLUMNS}`,
  );
  return row!;
}

/**
 * A CTE body inserting a discovery record when `condition` holds (`returning id`), for the
 * statements that finish a job or an agent run together with the record they save.
 */
export function recordInsertWhere(values: RecordValues, condition: SQL): SQL {
  // The run's organisation, not the member's current one: one who left meanwhile does not take
  // the company's search along (the trigger's default is the member's current organisation).
  const orgColumn = values.orgId === undefined ? sql`` : sql`${col(r.orgId)}, `;
  const orgValue = values.orgId === undefined ? sql`` : sql`${values.orgId}::uuid, `;
  return sql`insert into ${r} (${orgColumn}${columnNames([r.userId, r.product, r.market, r.companies, r.createdAt])})
    select ${orgValue}${values.userId}, ${values.product}, ${values.market},
      ${JSON.stringify(values.companies)}::jsonb, ${values.now}::timestamptz
    where ${condition}
    returning ${col(r.id)}`;
}

/**
 * Newest first, of the records the caller sees; `q` matches the product or the market (a
 * substring filter within the rows the organisation and holder indexes already narrow).
 */
export function listRecordsPage(
  db: Db,
  params: { userId: string; page: number; size: number; q?: string },
) {
  const filters: SQL[] = [visibleTo(r, params.userId)];
  if (params.q) {
    const pattern = `%${escapeLike(params.q)}%`;
    filters.push(sql`(${r.product} ilike ${pattern} or ${r.market} ilike ${pattern})`);
  }
  return selectPage<RecordRow>(db, {
    columns: RECORD_COLUMNS,
    from: sql`${r}`,
    where: sql.join(filters, sql` and `),
    order: sql`${r.createdAt} desc, ${r.id} desc`,
    page: params.page,
    size: params.size,
  });
}

export async function findRecord(
  db: Db,
  params: { userId: string; id: string },
): Promise<RecordRow | undefined> {
  const [row] = await queryRows<RecordRow>(
    db,
    sql`select ${RECORD_COLUMNS} from ${r}
        where ${r.id} = ${params.id} and ${visibleTo(r, params.userId)}`,
  );
  return row;
}

/** True when a record the caller may delete existed and is gone. */
export async function deleteRecordRow(
  db: Db,
  params: { userId: string; id: string },
): Promise<boolean> {
  const rows = await queryRows<Pick<RecordRow, "id">>(
    db,
    sql`delete from ${r} where ${r.id} = ${params.id} and ${visibleTo(r, params.userId, { access: "write" })}
        returning ${r.id}`,
  );
  return rows.length > 0;
}

/* ------------------------------------------------------------------ jobs */

const j = discoveryJobs;

export type QueuedJobRow = Pick<DbRow<typeof discoveryJobs>, "id" | "status">;

/** Records the queued job and takes its charge over from the hold, in one statement. */
export async function insertQueuedJob(
  db: Db,
  job: {
    id: string;
    userId: string;
    product: string;
    market: string;
    maxCompanies: number | null;
    consumptionId: string | null;
    creditsCharged: number;
    balanceAfter: number;
    progress: object;
    now: string;
  },
): Promise<QueuedJobRow> {
  const [row] = await queryRows<QueuedJobRow>(
    db,
    sql`with handed_over as (${holdHandOver(job.consumptionId)})
        insert into ${j} (${columnNames([
          j.id,
          j.userId,
          j.status,
          j.product,
          j.market,
          j.maxCompanies,
          j.consumptionId,
          j.creditsCharged,
          j.balanceAfter,
          j.progress,
          j.createdAt,
          j.updatedAt,
        ])})
        values (${job.id}, ${job.userId}, 'queued', ${job.product}, ${job.market},
          ${job.maxCompanies}, ${job.consumptionId}, ${job.creditsCharged},
          ${job.balanceAfter}, ${JSON.stringify(job.progress)}::jsonb,
          ${job.now}::timestamptz, ${job.now}::timestamptz)
        returning ${j.id}, ${j.status}`,
  );
  return row!;
}

export type ClaimedJobRow = Pick<
  DbRow<typeof discoveryJobs>,
  "id" | "org_id" | "user_id" | "product" | "market" | "max_companies" | "attempts"
>;

/** Claims the job (queued, or running with an expired lease); undefined: nothing to claim. */
export function claimJob(
  db: Db,
  params: { id: string; now: string; leaseUntil: string },
): Promise<ClaimedJobRow | undefined> {
  return claimLease<ClaimedJobRow>(db, j, {
    ...params,
    returning: columnList([
      j.id,
      j.orgId,
      j.userId,
      j.product,
      j.market,
      j.maxCompanies,
      j.attempts,
    ]),
  });
}

/** The running jobs `claims` ([id, attempts]) get a lease that has just expired; how many. */
export async function expireJobLeases(
  db: Db,
  params: { claims: [string, number][]; now: string },
): Promise<number> {
  const rows = await queryRows(
    db,
    sql`update ${j} set ${col(j.leaseUntil)} = ${params.now}::timestamptz - interval '1 second'
        from jsonb_array_elements(${JSON.stringify(params.claims)}::jsonb) e
        where ${j.id} = (e ->> 0)::uuid and ${j.attempts} = (e ->> 1)::int
          and ${j.status} = 'running'
        returning ${j.id}`,
  );
  return rows.length;
}

/** The job is still the claimer's: running with the attempts it claimed with. */
const ownedJob = (job: LeaseClaim) => leaseOwned(j, job);

/** Writes progress and extends the lease; false when the job is no longer the claimer's. */
export async function writeJobProgress(
  db: Db,
  params: {
    job: LeaseClaim;
    progress: object;
    leaseUntil: string;
    now: string;
  },
): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update ${j}
        set ${col(j.progress)} = ${JSON.stringify(params.progress)}::jsonb,
          ${col(j.leaseUntil)} = ${params.leaseUntil}::timestamptz,
          ${col(j.updatedAt)} = ${params.now}::timestamptz
        where ${ownedJob(params.job)}
        returning ${j.id}`,
  );
  return rows.length > 0;
}

/**
 * One statement: the job becomes `failed` (fenced by the claim) and its consumption is refunded
 * (credit_refund: once, with its ledger row). Undefined: the job was no longer the claimer's;
 * else the credits given back (for /metrics; the charge's cost, unchanged by the refund).
 */
export async function failJobAndRefund(
  db: Db,
  params: { job: LeaseClaim; progress: object; error: string; now: string },
): Promise<{ refunded: number } | undefined> {
  const { now } = params;
  const [row] = await queryRows<{ refunded: number }>(
    db,
    sql`with done as (
          update ${j}
          set ${col(j.status)} = 'failed', ${col(j.error)} = ${params.error},
            ${col(j.progress)} = ${JSON.stringify(params.progress)}::jsonb,
            ${col(j.leaseUntil)} = null, ${col(j.finishedAt)} = ${now}::timestamptz,
            ${col(j.updatedAt)} = ${now}::timestamptz
          where ${ownedJob(params.job)}
          returning ${j.id}, ${j.consumptionId})
        select ${refundedCredits(sql`r.applied`, sql`done.consumption_id`)} as refunded
        from done
        cross join lateral credit_refund(done.consumption_id, 'discovery job failed',
          ${now}::timestamptz) r`,
  );
  return row;
}

/**
 * One statement, fenced by the claim: the companies are saved as a discovery record of the
 * member who ran the job, in the job's organisation, and the job becomes `succeeded` with the
 * result and the record's id. When the result has no company the job's charge is refunded in
 * the same statement (credit_refund: once, with its ledger row) and the job says it charged 0
 * and the balance the refund left. Undefined: the job was no longer the claimer's; else the
 * credits refunded (for /metrics).
 */
export async function finishJobSucceeded(
  db: Db,
  params: {
    job: ClaimedJobRow;
    progress: object;
    result: { product: string; market: string; companies: unknown[] };
    now: string;
  },
): Promise<{ refunded: number } | undefined> {
  const { job, now, result } = params;
  const empty = result.companies.length === 0;
  const [row] = await queryRows<{ refunded: number }>(
    db,
    sql`with owner as (
          select ${j.id}, ${j.consumptionId} from ${j}
          where ${ownedJob(job)}
          for update),
        record as (${recordInsertWhere(
          {
            orgId: job.org_id,
            userId: job.user_id,
            product: result.product,
            market: result.market,
            companies: result.companies,
            now,
          },
          sql`exists (select 1 from owner)`,
        )}),
        refund as (
          select rf.balance,
            ${refundedCredits(sql`rf.applied`, sql`owner.consumption_id`)} as refunded
          from owner
          cross join lateral credit_refund(owner.consumption_id, 'discovery found no company',
            ${now}::timestamptz) rf
          where ${empty ? sql`true` : sql`false`} and owner.consumption_id is not null)
        update ${j}
        set ${col(j.status)} = 'succeeded', ${col(j.error)} = null, ${col(j.leaseUntil)} = null,
          ${col(j.progress)} = ${JSON.stringify(params.progress)}::jsonb,
          ${col(j.result)} = ${JSON.stringify(result)}::jsonb,
          ${col(j.recordId)} = (select id from record), ${col(j.finishedAt)} = ${now}::timestamptz,
          ${col(j.creditsCharged)} = case when ${empty ? sql`true` : sql`false`} then 0
            else ${j.creditsCharged} end,
          ${col(j.balanceAfter)} = coalesce((select balance from refund), ${j.balanceAfter}),
          ${col(j.updatedAt)} = ${now}::timestamptz
        where ${j.id} in (select id from owner)
        returning coalesce((select refunded from refund), 0)::int as refunded`,
  );
  return row;
}

/**
 * Jobs nobody is working on (lease expired, or queued since before `staleQueued`), oldest
 * first (discovery_jobs_open_idx), each handed to `redeliver`.
 */
export function sweepDueJobs(db: Db, params: Parameters<typeof sweepLeases>[2]) {
  return sweepLeases(db, j, params);
}

export type JobRow = Pick<
  DbRow<typeof discoveryJobs>,
  | "id"
  | "status"
  | "product"
  | "market"
  | "max_companies"
  | "credits_charged"
  | "balance_after"
  | "progress"
  | "result"
  | "record_id"
  | "error"
  | "attempts"
  | "created_at"
  | "started_at"
  | "finished_at"
  | "org_id"
  | "user_id"
> & { owner_name: string | null };

export async function findJob(
  db: Db,
  params: { userId: string; id: string },
): Promise<JobRow | undefined> {
  const [row] = await queryRows<JobRow>(
    db,
    sql`select ${columnList([
      j.id,
      j.status,
      j.product,
      j.market,
      j.maxCompanies,
      j.creditsCharged,
      j.balanceAfter,
      j.progress,
      j.result,
      j.recordId,
      j.error,
      j.attempts,
      j.createdAt,
      j.startedAt,
      j.finishedAt,
      j.orgId,
      j.userId,
    ])}, ${ownerName(j.userId)}
        from ${j} where ${j.id} = ${params.id} and ${visibleTo(j, params.userId)}`,
  );
  return row;
}

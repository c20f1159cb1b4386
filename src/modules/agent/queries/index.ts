import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { claimLease, type LeaseClaim, leaseOwned, sweepLeases } from "../../../db/leased-jobs";
import { selectPage } from "../../../db/page";
import {
  agentPipelines,
  creditConsumptions,
  creditLedger,
  orgMembers,
  userCredits,
  users,
} from "../../../db/schema";
import { visibleTo } from "../../../db/scope";
import { col, columnList, columnNames, type DbRow } from "../../../db/sql";
import { holdHandOver } from "../../credits/queries/hand-over";
import { refundedCredits } from "../../credits/queries/refunded";
import {
  type LeadCustomer,
  leadCustomersCtes,
  leadMatches,
  leadPlacements,
  leadQuota,
  savedLeads,
} from "../../customers/queries/leads";
import { recordInsertWhere } from "../../discovery/queries";

/**
 * The agent module's statements: its runs (agent_pipelines). A run is the member's who started
 * it: a member sees and cancels their own, managers and above every run of the organisation
 * (the scope in db/scope.ts).
 */

const a = agentPipelines;
const owner = alias(users, "owner");
// The run's charge less its refund (credits_charged).
const spent = alias(creditConsumptions, "spent");
const refundRow = alias(creditLedger, "refund_row");

type PipelineRow = DbRow<typeof agentPipelines>;

export type QueuedRunRow = Pick<PipelineRow, "id" | "status" | "max_credits">;

/* ------------------------------------------------------------------ start, sweep, resume */

/** Records the queued run and takes its charge over from the hold, in one statement. */
export async function insertQueuedRun(
  db: Db,
  run: {
    id: string;
    userId: string;
    product: string;
    market: string;
    maxLeads: number;
    consumptionId: string | null;
    /** The run's price before the cap, and the cap (ADR 0108). */
    price: number;
    maxCredits: number | null;
    now: string;
  },
): Promise<QueuedRunRow> {
  const [row] = await queryRows<QueuedRunRow>(
    db,
    sql`with handed_over as (${holdHandOver(run.consumptionId)})
        insert into ${a} (${columnNames([
          a.id,
          a.userId,
          a.status,
          a.product,
          a.market,
          a.maxLeads,
          a.consumptionId,
          a.price,
          a.maxCredits,
          a.createdAt,
          a.updatedAt,
        ])})
        values (${run.id}, ${run.userId}, 'queued', ${run.product}, ${run.market},
          ${run.maxLeads}, ${run.consumptionId}, ${run.price}, ${run.maxCredits},
          ${run.now}::timestamptz, ${run.now}::timestamptz)
        returning ${a.id}, ${a.status}, ${a.maxCredits}`,
  );
  return row!;
}

/**
 * Runs nobody is working on (lease expired, or queued since before `staleQueued`), oldest first
 * (agent_pipelines_open_idx), each handed to `redeliver`.
 */
export function sweepDueRuns(db: Db, params: Parameters<typeof sweepLeases>[2]) {
  return sweepLeases(db, a, params);
}

/** The runs `instanceId` was running get a lease that has just expired; their ids. */
export function expireInstanceLeases(
  db: Db,
  params: { instanceId: string; now: string },
): Promise<Pick<PipelineRow, "id">[]> {
  return queryRows(
    db,
    sql`update ${a}
        set ${col(a.leaseUntil)} = ${params.now}::timestamptz - interval '1 second'
        where ${a.status} = 'running' and ${a.instanceId} = ${params.instanceId}
        returning ${a.id}`,
  );
}

/* ------------------------------------------------------------------ a worker's run */

export type ClaimedRunRow = Pick<
  PipelineRow,
  | "id"
  | "org_id"
  | "user_id"
  | "product"
  | "market"
  | "max_leads"
  | "consumption_id"
  | "price"
  | "max_credits"
  | "attempts"
  | "pipeline_data"
  | "checkpoint"
>;

const owned = (run: LeaseClaim) => leaseOwned(a, run);

/** Claims the run (queued, or running with an expired lease); undefined: nothing to claim. */
export function claimRun(
  db: Db,
  params: { id: string; instanceId: string; now: string; leaseUntil: string },
): Promise<ClaimedRunRow | undefined> {
  return claimLease<ClaimedRunRow>(db, a, {
    id: params.id,
    now: params.now,
    leaseUntil: params.leaseUntil,
    set: sql`${col(a.instanceId)} = ${params.instanceId}`,
    returning: columnList([
      a.id,
      a.orgId,
      a.userId,
      a.product,
      a.market,
      a.maxLeads,
      a.consumptionId,
      a.price,
      a.maxCredits,
      a.attempts,
      a.pipelineData,
      a.checkpoint,
    ]),
  });
}

/**
 * Writes the run's progress (and the checkpoint, when given) and extends the lease; false when
 * the run is no longer the claimer's.
 */
export async function writeRunProgress(
  db: Db,
  params: { run: LeaseClaim; data: object; checkpoint?: object; leaseUntil: string; now: string },
): Promise<boolean> {
  const checkpoint = params.checkpoint ? JSON.stringify(params.checkpoint) : null;
  const rows = await queryRows(
    db,
    sql`update ${a}
        set ${col(a.pipelineData)} = ${JSON.stringify(params.data)}::jsonb,
          ${col(a.checkpoint)} = coalesce(${checkpoint}::jsonb, ${a.checkpoint}),
          ${col(a.leaseUntil)} = ${params.leaseUntil}::timestamptz,
          ${col(a.updatedAt)} = ${params.now}::timestamptz
        where ${owned(params.run)}
        returning ${a.id}`,
  );
  return rows.length > 0;
}

/**
 * Refunds the run's charge while the run is still the claimer's (the row locked first):
 * credit_refund refunds once. The credits it gave back (0: none), for /metrics.
 */
export async function refundClaimedRun(
  db: Db,
  params: { run: LeaseClaim; reason: string; now: string },
): Promise<number> {
  // The charge's cost is what credit_refund gives back; read unlocked (the function locks the
  // wallet, then the consumption), and unchanged by the refund.
  const [row] = await queryRows<{ credits: number }>(
    db,
    sql`select ${refundedCredits(sql`r.applied`, sql`p.consumption_id`)} as credits
        from (select ${a.consumptionId} from ${a}
              where ${owned(params.run)} and ${a.consumptionId} is not null
              for update) p
        cross join lateral credit_refund(p.consumption_id, ${params.reason},
          ${params.now}::timestamptz) r`,
  );
  return row?.credits ?? 0;
}

/** Marks the run failed (fenced by the claim). `data` null keeps the recorded stages. */
export async function failRun(
  db: Db,
  params: { run: LeaseClaim; data: object | null; error: string; now: string },
): Promise<void> {
  const { now } = params;
  const data = params.data === null ? null : JSON.stringify(params.data);
  await queryRows(
    db,
    sql`update ${a}
        set ${col(a.status)} = 'failed', ${col(a.error)} = ${params.error},
          ${col(a.leaseUntil)} = null, ${col(a.checkpoint)} = null,
          ${col(a.finishedAt)} = ${now}::timestamptz, ${col(a.updatedAt)} = ${now}::timestamptz,
          ${col(a.pipelineData)} = coalesce(${data}::jsonb, ${a.pipelineData})
        where ${owned(params.run)}`,
  );
}

/**
 * Ends the run before its last stage, one statement fenced by the claim (ADR 0108): `status`
 * (budget_exhausted: the next stage would pass max_credits; succeeded: the search found no
 * lead), `data` kept as the run's pipeline_data (its leads served as they are), and `refund`
 * credits of its charge given back with their ledger row by credit_refund_part, once. `done`
 * false when the run was no longer the claimer's (nothing written); `refunded` the credits
 * given back (for /metrics).
 */
export async function finishRunEarly(
  db: Db,
  params: {
    run: LeaseClaim;
    status: "budget_exhausted" | "succeeded";
    data: object;
    refund: number;
    reason: string;
    now: string;
  },
): Promise<{ done: boolean; refunded: number }> {
  const { now } = params;
  const p = alias(agentPipelines, "p");
  const [row] = await queryRows<{ done: number; refunded: number }>(
    db,
    sql`with done as (
        update ${a} ${p}
        set ${col(a.status)} = ${params.status}, ${col(a.error)} = null,
          ${col(a.leaseUntil)} = null, ${col(a.checkpoint)} = null,
          ${col(a.finishedAt)} = ${now}::timestamptz, ${col(a.updatedAt)} = ${now}::timestamptz,
          ${col(a.pipelineData)} = ${JSON.stringify(params.data)}::jsonb
        where ${p.id} = ${params.run.id} and ${p.status} = 'running'
          and ${p.attempts} = ${params.run.attempts}
        returning ${p.consumptionId}),
      refund as (
        select r.applied, r.amount from done
        cross join lateral credit_refund_part(done.consumption_id, ${params.refund}::int,
          ${params.reason}, ${now}::timestamptz) r
        where done.consumption_id is not null)
      select (select count(*) from done)::int as done,
        (select coalesce(sum(amount), 0) from refund where applied)::int as refunded`,
  );
  return { done: (row?.done ?? 0) > 0, refunded: row?.refunded ?? 0 };
}

/**
 * One statement: the leads become customers held by the member who started the run
 * (customers/leads.ts: duplicates and the plan's customers limit), a discovery record of that
 * member in the run's organisation keeps the companies, and the run is finished with
 * customer ids, the save stage and the summary. Fenced by the claim: false when the run was no
 * longer the claimer's (nothing written).
 */
export async function finishRunSaved(
  db: Db,
  params: {
    run: LeaseClaim & { org_id: string; user_id: string; product: string; market: string };
    customers: LeadCustomer[];
    noNewCustomers: boolean;
    companies: unknown[];
    /** The stages before the save stage, and the leads (with their drafts). */
    stages: object[];
    leads: object[];
    drafted: number;
    saveStarted: string;
    now: string;
  },
): Promise<boolean> {
  const { run, now } = params;
  const p = alias(agentPipelines, "p");
  const placed = leadPlacements;
  const [result] = await queryRows<{ done: number }>(
    db,
    sql`with owner as (
        select 1 from ${a} where ${owned(run)}),
      ${leadCustomersCtes({
        userId: run.user_id,
        leads: params.customers,
        noNewCustomers: params.noNewCustomers,
        now,
        // Leads are the company's work: a member who left or was removed while the run went
        // on saves no customers into their new organisation (the run keeps its leads, which
        // the organisation's managers still see).
        when: sql`exists (select 1 from owner) and exists (select 1 from ${orgMembers}
          where ${orgMembers.userId} = ${run.user_id}::uuid and ${orgMembers.orgId} = ${run.org_id}::uuid)`,
      })},
      record as (${recordInsertWhere(
        {
          orgId: run.org_id,
          userId: run.user_id,
          product: run.product,
          market: run.market,
          companies: params.companies,
          now,
        },
        sql`exists (select 1 from owner)`,
      )}),
      counts as (
        select (select count(*) from ${savedLeads})::int as saved,
          (select count(*) from ${leadMatches}
           where ${leadMatches.col("existing")} is not null)::int as duplicates,
          n.not_saved, n.limit_note,
          -- Only when leads were left out: {not_saved, note}, merged into the summary.
          case when n.not_saved > 0 then jsonb_build_object('not_saved', n.not_saved,
              'note', n.not_saved || ' new lead(s) not saved: ' || n.limit_note)
            else '{}'::jsonb end as over_limit
        from (select (select count(*) from ${leadPlacements}
                      where ${leadPlacements.col("over_limit")})::int as not_saved,
                'the customers limit of your plan (' || coalesce(${leadQuota.col("max")}::text, 'none')
                  || ') is reached' as limit_note
              from ${leadQuota}) n),
      done as (
        update ${a} ${p}
        set ${col(a.status)} = 'succeeded', ${col(a.error)} = null, ${col(a.leaseUntil)} = null,
          ${col(a.checkpoint)} = null, ${col(a.finishedAt)} = ${now}::timestamptz,
          ${col(a.updatedAt)} = ${now}::timestamptz,
          ${col(a.pipelineData)} = jsonb_build_object(
            'stages', ${JSON.stringify(params.stages)}::jsonb || jsonb_build_array(jsonb_build_object(
              'name', 'save', 'status', 'succeeded', 'started_at', ${params.saveStarted}::text,
              'finished_at', ${now}::text,
              'detail', jsonb_build_object('saved', counts.saved, 'duplicates', counts.duplicates,
                'discovery_record_id', (select id from record)) || counts.over_limit)),
            'leads', coalesce((
              select jsonb_agg(e.lead || jsonb_build_object(
                  'customer_id', case when ${placed.col("keep")} then ${placed.col("id")} end,
                  'duplicate_of', ${placed.col("existing")})
                  || case when ${placed.col("over_limit")}
                     then jsonb_build_object('not_saved', counts.limit_note)
                     else '{}'::jsonb end order by e.ord)
              from jsonb_array_elements(${JSON.stringify(params.leads)}::jsonb)
                with ordinality as e(lead, ord)
              join ${placed} on ${placed.col("ord")} = e.ord), '[]'::jsonb),
            'summary', jsonb_build_object('leads', ${params.leads.length}::int,
              'drafted', ${params.drafted}::int, 'saved', counts.saved, 'duplicates', counts.duplicates)
              || counts.over_limit)
        from counts
        where ${p.id} = ${run.id} and ${p.status} = 'running' and ${p.attempts} = ${run.attempts}
        returning ${p.id})
      select (select count(*) from done)::int as done`,
  );
  return (result?.done ?? 0) > 0;
}

/* ------------------------------------------------------------------ cancel */

export interface CancelOutcome {
  /** The run's status before (null: not a run the caller may cancel). */
  was: PipelineRow["status"] | null;
  cancelled: boolean;
  refunded: number | null;
  balance: DbRow<typeof userCredits>["balance"] | null;
}

/**
 * One statement: a queued or running run the caller may cancel (their own; any of the
 * organisation's for a manager and above) becomes `cancelled` (its row locked first)
 * and the share of its charge for the `billedStages` not started (counted from the stages in
 * pipeline_data) is refunded with its ledger row by credit_refund_part, once.
 */
export async function cancelRunAndRefund(
  db: Db,
  params: { userId: string; id: string; billedStages: number; now: string },
): Promise<CancelOutcome | undefined> {
  const { now, billedStages } = params;
  const p = alias(agentPipelines, "p");
  const c = alias(creditConsumptions, "c");
  const [row] = await queryRows<CancelOutcome>(
    db,
    sql`with target as (
          select ${a.id}, ${a.status}, ${a.consumptionId},
            coalesce(${a.price}, (select ${creditConsumptions.cost} from ${creditConsumptions}
              where ${creditConsumptions.id} = ${a.consumptionId})) as price,
            jsonb_array_length(coalesce(${a.pipelineData} -> 'stages', '[]'::jsonb)) as started
          from ${a} where ${a.id} = ${params.id}
            and ${visibleTo(a, params.userId, { access: "write" })}
          for update),
        cancelled as (
          update ${a} ${p}
          set ${col(a.status)} = 'cancelled', ${col(a.error)} = 'Cancelled by the user',
            ${col(a.leaseUntil)} = null, ${col(a.checkpoint)} = null,
            ${col(a.finishedAt)} = ${now}::timestamptz, ${col(a.updatedAt)} = ${now}::timestamptz
          from target t
          where ${p.id} = t.id and t.status in ('queued', 'running')
          returning ${p.id}, t.consumption_id, t.started, t.price),
        owed as (
          -- What the stages started cost of the run's price (ADR 0108), the rest of the
          -- charge back: without a cap, floor(cost * stages not started / stages).
          select ${c.id} as consumption_id,
            (${c.cost} - least(${c.cost}, x.price - (x.price * (${billedStages}
              - least(greatest(x.started, 0), ${billedStages})) / ${billedStages})))::int as amount
          from cancelled x join ${creditConsumptions} ${c} on ${c.id} = x.consumption_id),
        refund as (
          select r.applied, r.balance, r.amount from owed
          cross join lateral credit_refund_part(owed.consumption_id, owed.amount,
            'agent_run cancelled', ${now}::timestamptz) r)
      select (select status from target) as was,
        exists (select 1 from cancelled) as cancelled,
        (select amount from refund where applied) as refunded,
        coalesce((select balance from refund),
          (select ${userCredits.balance} from ${userCredits}
           where ${userCredits.userId} = ${params.userId})) as balance`,
  );
  return row;
}

/* ------------------------------------------------------------------ reading runs */

export type RunViewRow = Pick<PipelineRow, "id" | "status" | "error" | "finished_at"> & {
  /** pipeline_data -> 'stages' / -> 'summary' (jsonb; some drivers hand it over as text). */
  stages: unknown;
  summary: unknown;
};

/** The run without its leads (the event stream's poll); undefined when the caller does not see it. */
export async function findRunView(
  db: Db,
  params: { userId: string; id: string },
): Promise<RunViewRow | undefined> {
  const [row] = await queryRows<RunViewRow>(
    db,
    sql`select ${a.id}, ${a.status}, ${a.error}, ${a.pipelineData} -> 'stages' as stages,
          ${a.pipelineData} -> 'summary' as summary, ${a.finishedAt}
        from ${a} where ${a.id} = ${params.id} and ${visibleTo(a, params.userId)}`,
  );
  return row;
}

export type RunRow = Pick<
  PipelineRow,
  | "id"
  | "status"
  | "product"
  | "market"
  | "max_leads"
  | "error"
  | "attempts"
  | "created_at"
  | "started_at"
  | "finished_at"
  | "org_id"
  | "user_id"
  | "max_credits"
> & { owner_name: string | null; credits_charged: number | null };

const RUN_COLUMNS = sql`${columnList([
  a.id,
  a.status,
  a.product,
  a.market,
  a.maxLeads,
  a.error,
  a.attempts,
  a.createdAt,
  a.startedAt,
  a.finishedAt,
  a.orgId,
  a.userId,
  a.maxCredits,
])}, (select ${owner.name} from ${users} ${owner} where ${owner.id} = ${a.userId}) as owner_name,
  (select (${spent.cost} - coalesce(${refundRow.delta}, 0))::int
   from ${creditConsumptions} ${spent}
   left join ${creditLedger} ${refundRow} on ${refundRow.id} = ${spent.refundLedgerId}
   where ${spent.id} = ${a.consumptionId}) as credits_charged`;

/** The runs the caller sees, newest first, with their summaries. */
export function listRunsPage(db: Db, params: { userId: string; page: number; size: number }) {
  return selectPage<RunRow & { summary: unknown }>(db, {
    columns: sql`${RUN_COLUMNS}, ${a.pipelineData} -> 'summary' as summary`,
    from: sql`${a}`,
    where: visibleTo(a, params.userId),
    order: sql`${a.createdAt} desc, ${a.id} desc`,
    page: params.page,
    size: params.size,
  });
}

export async function findRun(
  db: Db,
  params: { userId: string; id: string },
): Promise<(RunRow & Pick<PipelineRow, "pipeline_data">) | undefined> {
  const [row] = await queryRows<RunRow & Pick<PipelineRow, "pipeline_data">>(
    db,
    sql`select ${RUN_COLUMNS}, ${a.pipelineData} from ${a}
        where ${a.id} = ${params.id} and ${visibleTo(a, params.userId)}`,
  );
  return row;
}

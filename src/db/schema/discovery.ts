import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, tstz, updatedAt } from "./columns";
import { orgs } from "./orgs";
import { users } from "./users";

export const SEARCH_PROVIDER_KINDS = ["brave", "searxng"] as const;
export type SearchProviderKind = (typeof SEARCH_PROVIDER_KINDS)[number];

/**
 * Web search engines for customer discovery, configured by admins: `brave` (Brave Search API)
 * and `searxng` (a self-hosted meta-search, JSON format). Tried in the order of system config
 * `search.providers_order`, then by name. Keys encrypted as AI provider keys are.
 */
export const searchProviders = pgTable(
  "search_providers",
  {
    id: id(),
    name: text("name").notNull(),
    kind: text("kind", { enum: SEARCH_PROVIDER_KINDS }).notNull(),
    baseUrl: text("base_url").notNull(),
    apiKeyCiphertext: text("api_key_ciphertext"),
    apiKeyHint: text("api_key_hint"),
    enabled: boolean("enabled").notNull().default(true),
    timeoutMs: integer("timeout_ms").notNull().default(15_000),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("search_providers_name_key").on(t.name),
    check("search_providers_kind_check", sql`${t.kind} in ('brave', 'searxng')`),
    check("search_providers_timeout_check", sql`${t.timeoutMs} between 1000 and 120000`),
  ],
);

/** A saved discovery search: the companies found for a product in a market (spec fields). */
export const discoveryRecords = pgTable(
  "discovery_records",
  {
    id: id(),
    /** The organisation the record belongs to (issue #22); user_id is the member who ran it. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    product: text("product").notNull(),
    market: text("market").notNull(),
    companies: jsonb("companies").$type<unknown[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    index("discovery_records_user_created_idx").on(t.userId, t.createdAt),
    index("discovery_records_org_created_idx").on(t.orgId, t.createdAt),
  ],
);

export const PIPELINE_STATUSES = [
  "queued",
  "running",
  "succeeded",
  "failed",
  "cancelled",
  "budget_exhausted",
] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

/**
 * One run of the AI Digital Employee agent: discovery search -> analysis -> outreach drafts ->
 * automatic save. `pipeline_data` holds {stages, leads, summary} (spec).
 */
export const agentPipelines = pgTable(
  "agent_pipelines",
  {
    id: id(),
    /** The organisation the record belongs to (issue #22); user_id is the member who ran it. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: PIPELINE_STATUSES }).notNull().default("queued"),
    product: text("product").notNull(),
    market: text("market").notNull(),
    maxLeads: integer("max_leads").notNull().default(10),
    pipelineData: jsonb("pipeline_data")
      .$type<Record<string, unknown>>()
      .notNull()
      .default({ stages: [], leads: [], summary: null }),
    /** The consumption the run was charged under, refunded if the run fails. */
    consumptionId: uuid("consumption_id"),
    /** The run's price (quoted or configured) and the caller's cap on it (ADR 0108). */
    price: integer("price"),
    maxCredits: integer("max_credits"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    /** A worker holds the run until then; past it another worker may take it over. */
    leaseUntil: tstz("lease_until"),
    /** The instance that claimed the run last: it resumes the run at once when it restarts. */
    instanceId: text("instance_id"),
    /** What a resumed run needs from stages already done (the discovery result); not served. */
    checkpoint: jsonb("checkpoint").$type<Record<string, unknown>>(),
    startedAt: tstz("started_at"),
    finishedAt: tstz("finished_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("agent_pipelines_user_created_idx").on(t.userId, t.createdAt),
    index("agent_pipelines_org_created_idx").on(t.orgId, t.createdAt),
    index("agent_pipelines_open_idx")
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    check(
      "agent_pipelines_status_check",
      sql`${t.status} in ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'budget_exhausted')`,
    ),
    check("agent_pipelines_max_leads_check", sql`${t.maxLeads} between 1 and 50`),
  ],
);

export const DISCOVERY_JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type DiscoveryJobStatus = (typeof DISCOVERY_JOB_STATUSES)[number];

/**
 * A discovery search run in the background (POST /discovery/jobs): leased and fenced by
 * `attempts` like an agent run; `progress` says where each query and the analysis are, `result`
 * holds the search's answer once it succeeded, saved as the discovery record `record_id` too.
 */
export const discoveryJobs = pgTable(
  "discovery_jobs",
  {
    id: id(),
    /** The organisation the record belongs to (issue #22); user_id is the member who ran it. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: DISCOVERY_JOB_STATUSES }).notNull().default("queued"),
    product: text("product").notNull(),
    market: text("market").notNull(),
    maxCompanies: integer("max_companies"),
    /** The charge the job took over from its hold, refunded if the job fails. */
    consumptionId: uuid("consumption_id"),
    /** What the charge cost and left, served with the result as the search serves them. */
    creditsCharged: integer("credits_charged").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    progress: jsonb("progress").$type<Record<string, unknown>>().notNull(),
    result: jsonb("result").$type<Record<string, unknown>>(),
    recordId: uuid("record_id").references(() => discoveryRecords.id, { onDelete: "set null" }),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    /** A worker holds the job until then; past it the sweep runs it again. */
    leaseUntil: tstz("lease_until"),
    startedAt: tstz("started_at"),
    finishedAt: tstz("finished_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("discovery_jobs_user_created_idx").on(t.userId, t.createdAt),
    index("discovery_jobs_org_created_idx").on(t.orgId, t.createdAt),
    index("discovery_jobs_open_idx")
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    check(
      "discovery_jobs_status_check",
      sql`${t.status} in ('queued', 'running', 'succeeded', 'failed')`,
    ),
    check("discovery_jobs_max_companies_check", sql`${t.maxCompanies} between 1 and 50`),
  ],
);

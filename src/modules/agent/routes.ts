import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { streamSSE } from "hono/streaming";
import { queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { PipelineStatus } from "../../db/schema/discovery";
import type { Deps } from "../../deps";
import { requireAuth } from "../../http/auth";
import { featureGateResponses, requireFeature } from "../../http/entitlements";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  notFound,
} from "../../http/errors";
import { IDEMPOTENCY_HEADER, idempotentRequest } from "../../http/idempotency";
import { requestIp } from "../../http/limits";
import { jsonResponse as json, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { iso } from "../../lib/clock";
import { keepAliveOf } from "../jobs/background";
import { cancelAgentRun } from "./cancel";
import { startAgentRun } from "./dispatch";
import { readRunView, streamRunEvents } from "./events";
import {
  AgentCancelledSchema,
  AgentStartedSchema,
  PipelineIdParam,
  PipelineSchema,
  PipelinesPage,
  PipelinesQuery,
  StartAgentBody,
} from "./schemas";

const tags = ["Agent"];
const billableGuard = [
  requireAuth,
  requireFeature("agent", { limit: "agent_runs_per_month" }),
  idempotentRequest,
];

/** API.md serves the agent under `/agent/...` and `/api/v1/agent/...`: one route per prefix. */
const PREFIXES = ["/agent", "/api/v1/agent"] as const;

const startRoute = (prefix: string) =>
  createRoute({
    method: "post",
    path: `${prefix}/start`,
    tags,
    security,
    summary:
      "Start an AI Digital Employee run: search, analysis, outreach drafts, auto-save (billed)",
    description:
      "Costs `credits.costs.agent_run` credits, charged now and returned if the search fails. " +
      "The run continues in the background; poll GET /agent/{id} for its pipeline_data.",
    middleware: [...billableGuard],
    request: {
      body: { required: true, content: { "application/json": { schema: StartAgentBody } } },
    },
    responses: {
      202: json(AgentStartedSchema, "The run was queued"),
      402: errorResponse(ErrorSchema, "Not enough credits (nothing written)"),
      409: errorResponse(ErrorSchema, "A request with this Idempotency-Key is still running"),
      ...csrfErrorResponses,
      ...featureGateResponses("agent", "or this month's agent runs are used up"),
    },
  });

const listRoute = (prefix: string) =>
  createRoute({
    method: "get",
    path: `${prefix}/pipelines`,
    tags,
    security,
    summary: "The caller's agent runs, newest first (without the full pipeline_data)",
    middleware: [requireAuth] as const,
    request: { query: PipelinesQuery },
    responses: { 200: json(PipelinesPage, "A page of pipelines"), ...authErrorResponses },
  });

const getRoute = (prefix: string) =>
  createRoute({
    method: "get",
    path: `${prefix}/{id}`,
    tags,
    security,
    summary: "One agent run with pipeline_data {stages, leads, summary}",
    middleware: [requireAuth] as const,
    request: { params: PipelineIdParam },
    responses: {
      200: json(PipelineSchema, "The pipeline"),
      404: errorResponse(ErrorSchema, "No such pipeline of the caller"),
      ...authErrorResponses,
    },
  });

const eventsRoute = (prefix: string) =>
  createRoute({
    method: "get",
    path: `${prefix}/{id}/events`,
    tags,
    security,
    summary: "Server-sent events of one agent run: its state, then each stage change, then its end",
    description:
      "`text/event-stream`. First `state` {id, status, error, stages, summary, finished_at} (the " +
      "run as it is now; `stages` as in pipeline_data, without the leads); then, as they happen, " +
      "`status` {status} when the run's status changes and `stage` {name, status, started_at, " +
      "finished_at, detail} for each stage that starts or ends; when the run has ended " +
      "(succeeded, failed or cancelled) a final `end` {status, error, summary, finished_at}, and " +
      "the stream closes. Changes are read every 0.5 s; a quiet stream gets a comment line every " +
      "15 s and closes after 10 minutes (reconnect: the first event is the current state again). " +
      "404 (JSON, before any event) when the run is not the caller's.",
    middleware: [requireAuth] as const,
    request: { params: PipelineIdParam },
    responses: {
      200: {
        description: "The event stream",
        content: { "text/event-stream": { schema: z.string() } },
      },
      404: errorResponse(ErrorSchema, "No such pipeline of the caller"),
      ...authErrorResponses,
    },
  });

const cancelRoute = (prefix: string) =>
  createRoute({
    method: "post",
    path: `${prefix}/{id}/cancel`,
    tags,
    security,
    summary: "Stop a queued or running agent run; the unused stages' credits are refunded",
    description:
      "The run becomes `cancelled` at once; its worker writes nothing more. Refund: the run's " +
      "charge times the stages not started (of search, analysis, outreach, save) divided by 4, " +
      "rounded down: a queued run gets everything back. A run that already ended is 409 and " +
      "refunds nothing, so cancelling twice refunds once.",
    middleware: [requireAuth] as const,
    request: { params: PipelineIdParam },
    responses: {
      200: json(AgentCancelledSchema, "The run was cancelled"),
      404: errorResponse(ErrorSchema, "No such pipeline of the caller"),
      409: errorResponse(ErrorSchema, "The run already ended (succeeded, failed or cancelled)"),
      ...csrfErrorResponses,
    },
  });

interface PipelineRow {
  id: string;
  status: PipelineStatus;
  product: string;
  market: string;
  max_leads: number;
  error: string | null;
  attempts: number;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

type PipelineData = z.output<typeof PipelineSchema>["pipeline_data"];

const parsedJson = <T>(value: T | string): T =>
  typeof value === "string" ? (JSON.parse(value) as T) : value;

const base = (r: PipelineRow) => ({
  id: r.id,
  status: r.status,
  product: r.product,
  market: r.market,
  max_leads: r.max_leads,
  error: r.error,
  attempts: r.attempts,
  created_at: iso(r.created_at),
  started_at: iso(r.started_at),
  finished_at: iso(r.finished_at),
});

const COLUMNS = sql`id, status, product, market, max_leads, error, attempts, created_at,
  started_at, finished_at`;

async function listPipelines(deps: Deps, userId: string, query: { page: number; size: number }) {
  // agent_pipelines_user_created_idx serves the filter and the order.
  const { rows, total } = await selectPage<PipelineRow & { summary: unknown }>(deps.db, {
    columns: sql`${COLUMNS}, pipeline_data -> 'summary' as summary`,
    from: sql`agent_pipelines`,
    where: sql`user_id = ${userId}`,
    order: sql`created_at desc, id desc`,
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((r) => ({
      ...base(r),
      summary: parsedJson(r.summary) as {
        leads: number;
        drafted: number;
        saved: number;
        duplicates: number;
      } | null,
    })),
    total,
    page: query.page,
    size: query.size,
  };
}

async function getPipeline(deps: Deps, userId: string, id: string) {
  const [row] = await queryRows<PipelineRow & { pipeline_data: unknown }>(
    deps.db,
    sql`select ${COLUMNS}, pipeline_data from agent_pipelines
        where id = ${id} and user_id = ${userId}`,
  );
  if (!row) throw notFound("Pipeline not found");
  const data = parsedJson(row.pipeline_data) as Partial<PipelineData>;
  return {
    ...base(row),
    pipeline_data: {
      stages: data.stages ?? [],
      leads: data.leads ?? [],
      summary: data.summary ?? null,
    },
  };
}

/** The AI Digital Employee agent: start a run, list and read pipelines, follow, cancel. */
export function createAgentRoutes() {
  const router = createRouter();
  for (const prefix of PREFIXES) {
    router.openapi(startRoute(prefix), async (c) => {
      const key = c.req.header(IDEMPOTENCY_HEADER);
      const started = await startAgentRun(
        c.get("deps"),
        { userId: c.get("auth").userId, ...(key ? { idempotencyKey: key } : {}), ip: requestIp(c) },
        c.req.valid("json"),
        keepAliveOf(c),
      );
      return c.json(started, 202);
    });
    // The literal /pipelines before /{id}; the id is a UUID besides, so "pipelines" is never one.
    router.openapi(listRoute(prefix), async (c) =>
      c.json(await listPipelines(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
    );
    router.openapi(getRoute(prefix), async (c) =>
      c.json(await getPipeline(c.get("deps"), c.get("auth").userId, c.req.valid("param").id), 200),
    );
    router.openapi(eventsRoute(prefix), async (c) => {
      const deps = c.get("deps");
      const userId = c.get("auth").userId;
      // 404 as JSON before the stream opens.
      const first = await readRunView(deps, userId, c.req.valid("param").id);
      if (!first) throw notFound("Pipeline not found");
      return streamSSE(c, async (stream) => {
        let closed = false;
        stream.onAbort(() => {
          closed = true;
        });
        await streamRunEvents(deps, userId, first, {
          send: ({ event, data }) => stream.writeSSE({ event, data: JSON.stringify(data) }),
          comment: (text) => stream.write(`: ${text}\n\n`).then(() => undefined),
          sleep: (ms) => stream.sleep(ms),
          get closed() {
            return closed || stream.aborted || stream.closed;
          },
        });
      });
    });
    router.openapi(cancelRoute(prefix), async (c) =>
      c.json(
        await cancelAgentRun(c.get("deps"), c.get("auth").userId, c.req.valid("param").id),
        200,
      ),
    );
  }
  return router;
}

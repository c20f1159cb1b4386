import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { featureGateResponses, requireFeature } from "../../http/entitlements";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  notFound,
  retryAfterHeader,
} from "../../http/errors";
import { IDEMPOTENCY_HEADER, idempotentRequest } from "../../http/idempotency";
import { requestIp } from "../../http/limits";
import { lastWord, liveSSE, openLiveStream } from "../../http/live-stream";
import { IdParam, jsonResponse as json, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { keepAliveOf } from "../jobs/background";
import {
  AgentCancelledSchema,
  AgentStartedSchema,
  PipelineSchema,
  PipelinesPage,
  PipelinesQuery,
  StartAgentBody,
} from "./schemas";
import {
  cancelAgentRun,
  getPipeline,
  listPipelines,
  readRunView,
  startAgentRun,
  streamRunEvents,
} from "./service";

const tags = ["Agent"];
const billableGuard = [
  requireAuth,
  requireFeature("agent", { limit: "agent_runs_per_month" }),
  idempotentRequest,
];

/** API.md serves the agent under `/agent/...` and `/api/v1/agent/...`: one route per path. */
const PATHS = [
  {
    start: "/agent/start",
    list: "/agent/pipelines",
    get: "/agent/{id}",
    events: "/agent/{id}/events",
    cancel: "/agent/{id}/cancel",
  },
  {
    start: "/api/v1/agent/start",
    list: "/api/v1/agent/pipelines",
    get: "/api/v1/agent/{id}",
    events: "/api/v1/agent/{id}/events",
    cancel: "/api/v1/agent/{id}/cancel",
  },
] as const;

const startRoute = (path: string) =>
  createRoute({
    method: "post",
    path,
    tags,
    security,
    summary:
      "Start an AI Digital Employee run: search, analysis, outreach drafts, auto-save (billed)",
    description:
      "Costs `credits.costs.agent_run` credits (exactly the quote's with `quote_id`, POST " +
      "/api/v1/credits/quote), charged now, at most `max_credits`, and returned if the search " +
      "fails or finds no lead. With `max_credits` below the price the run stops at the stage " +
      "boundary where the next stage (an equal share of the price each of search, analysis, " +
      "outreach and save) would pass it: status `budget_exhausted`, its leads kept, the unused " +
      "rest refunded (ADR 0108). `credits_charged` says what the run costs so far. " +
      "The run continues in the background; poll GET /agent/{id} for its pipeline_data.",
    middleware: [...billableGuard],
    request: {
      body: { required: true, content: { "application/json": { schema: StartAgentBody } } },
    },
    responses: {
      202: json(AgentStartedSchema, "The run was queued"),
      402: errorResponse(ErrorSchema, "Not enough credits (nothing written)"),
      404: errorResponse(ErrorSchema, "quote_not_found: no such quote of the caller"),
      409: errorResponse(
        ErrorSchema,
        "quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running",
      ),
      ...csrfErrorResponses,
      ...featureGateResponses("agent", "or this month's agent runs are used up"),
    },
  });

const listRoute = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags,
    security,
    summary: "The caller's agent runs, newest first (without the full pipeline_data)",
    middleware: [requireAuth] as const,
    request: { query: PipelinesQuery },
    responses: { 200: json(PipelinesPage, "A page of pipelines"), ...authErrorResponses },
  });

const getRoute = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags,
    security,
    summary: "One agent run with pipeline_data {stages, leads, summary}",
    middleware: [requireAuth] as const,
    request: { params: IdParam },
    responses: {
      200: json(PipelineSchema, "The pipeline"),
      404: errorResponse(ErrorSchema, "No such pipeline of the caller"),
      ...authErrorResponses,
    },
  });

const eventsRoute = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags,
    security,
    summary: "Server-sent events of one agent run: its state, then each stage change, then its end",
    description:
      "`text/event-stream`. First `state` {id, status, error, stages, summary, finished_at} (the " +
      "run as it is now; `stages` as in pipeline_data, without the leads); then, as they happen, " +
      "`status` {status} when the run's status changes and `stage` {name, status, started_at, " +
      "finished_at, detail} for each stage that starts or ends; when the run has ended " +
      "(succeeded, failed, cancelled or budget_exhausted) a final `end` {status, error, summary, finished_at}, and " +
      "the stream closes. Changes are read every 0.5 s; a quiet stream gets a comment line every " +
      "15 s and closes after 10 minutes (reconnect: the first event is the current state again). " +
      "The stream ends with its session: within about a second of a logout, a password change, " +
      "the account being disabled or the access token expiring, an `error` {detail} and the " +
      "stream closes (reconnect with a fresh token). When the server restarts, a `reconnect` " +
      "{detail} with `retry: 1000` and the stream closes: an EventSource reconnects by itself " +
      "(to another instance) a second later and gets the current state first. 404 (JSON, before any event) when the run " +
      "is not the caller's; 429 (JSON, Retry-After) when the caller already holds " +
      "`STREAMS_PER_USER` open streams (agent events and streamed chat together, default 5).",
    middleware: [requireAuth] as const,
    request: { params: IdParam },
    responses: {
      200: {
        description: "The event stream",
        content: { "text/event-stream": { schema: z.string() } },
      },
      404: errorResponse(ErrorSchema, "No such pipeline of the caller"),
      429: {
        ...errorResponse(ErrorSchema, "The caller already holds its maximum of open streams"),
        headers: retryAfterHeader,
      },
      ...authErrorResponses,
    },
  });

const cancelRoute = (path: string) =>
  createRoute({
    method: "post",
    path,
    tags,
    security,
    summary: "Stop a queued or running agent run; the unused stages' credits are refunded",
    description:
      "The run becomes `cancelled` at once; its worker writes nothing more. Refund: the run's " +
      "charge times the stages not started (of search, analysis, outreach, save) divided by 4, " +
      "rounded down: a queued run gets everything back. A run that already ended is 409 and " +
      "refunds nothing, so cancelling twice refunds once.",
    middleware: [requireAuth] as const,
    request: { params: IdParam },
    responses: {
      200: json(AgentCancelledSchema, "The run was cancelled"),
      404: errorResponse(ErrorSchema, "No such pipeline of the caller"),
      409: errorResponse(ErrorSchema, "The run already ended (succeeded, failed or cancelled)"),
      ...csrfErrorResponses,
    },
  });

/** The AI Digital Employee agent: start a run, list and read pipelines, follow, cancel. */
export function createAgentRoutes() {
  const router = createRouter();
  for (const paths of PATHS) {
    router.openapi(startRoute(paths.start), async (c) => {
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
    router.openapi(listRoute(paths.list), async (c) =>
      c.json(await listPipelines(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
    );
    router.openapi(getRoute(paths.get), async (c) =>
      c.json(await getPipeline(c.get("deps"), c.get("auth").userId, c.req.valid("param").id), 200),
    );
    router.openapi(eventsRoute(paths.events), async (c) => {
      const deps = c.get("deps");
      const userId = c.get("auth").userId;
      // 404 as JSON before the stream opens.
      const first = await readRunView(deps, userId, c.req.valid("param").id);
      if (!first) throw notFound("Pipeline not found");
      // 429 when the caller already holds STREAMS_PER_USER streams (src/http/live-stream.ts).
      // Ends at a stop with `reconnect`: the next connection begins with the whole state.
      const live = openLiveStream(c, { endsAtStop: true });
      return liveSSE(c, live, async (stream) => {
        await streamRunEvents(deps, userId, first, {
          send: ({ event, data }) => stream.writeSSE({ event, data: JSON.stringify(data) }),
          comment: (text) => stream.write(`: ${text}\n\n`).then(() => undefined),
          // Wakes early when the session ends, so the stream closes within a poll interval.
          sleep: (ms) => live.sleep(ms),
          get closed() {
            return live.signal.aborted || stream.aborted || stream.closed;
          },
        });
        // `error` when the session ended, `reconnect` (with `retry:`) when the server stops.
        await lastWord(stream, live);
      });
    });
    router.openapi(cancelRoute(paths.cancel), async (c) =>
      c.json(
        await cancelAgentRun(c.get("deps"), c.get("auth").userId, c.req.valid("param").id),
        200,
      ),
    );
  }
  return router;
}

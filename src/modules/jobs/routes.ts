import { createRoute } from "@hono/zod-openapi";
import { ApiError, ErrorSchema, errorResponse, notFound, validationError } from "../../http/errors";
import { jsonResponse as json } from "../../http/openapi";
import { createRouter } from "../../http/router";
import type { Deps } from "../../ports";
import { AgentRunJob } from "../agent/schemas";
import { AGENT_RUN_JOB, runAgentPipeline } from "../agent/service";
import { DISCOVERY_RUN_JOB, runDiscoveryJob } from "../discovery/jobs";
import { DiscoveryRunJob } from "../discovery/schemas";
import { qstashVerifying, verifyJobSignature } from "./qstash";
import { JobDoneSchema, JobParam } from "./schemas";
import { claimDelivery, releaseDelivery } from "./service";

/** Background jobs by name; each takes the verified JSON payload QStash delivered. */
const JOBS = new Map<string, (deps: Deps, payload: unknown) => Promise<void>>([
  [
    AGENT_RUN_JOB,
    async (deps, payload) => {
      const parsed = AgentRunJob.safeParse(payload);
      if (!parsed.success) {
        throw validationError([
          { loc: ["body", "pipeline_id"], msg: "A pipeline id is required", type: "value_error" },
        ]);
      }
      // Nothing to claim (done, or held by a live lease) is fine: QStash must not retry it.
      await runAgentPipeline(deps, parsed.data.pipeline_id);
    },
  ],
  [
    DISCOVERY_RUN_JOB,
    async (deps, payload) => {
      const parsed = DiscoveryRunJob.safeParse(payload);
      if (!parsed.success) {
        throw validationError([
          { loc: ["body", "job_id"], msg: "A discovery job id is required", type: "value_error" },
        ]);
      }
      // As for agent runs: a job already finished or held answers 200 without running.
      await runDiscoveryJob(deps, parsed.data.job_id);
    },
  ],
]);

const runJobRoute = createRoute({
  method: "post",
  path: "/api/v1/jobs/{name}",
  tags: ["Jobs"],
  summary: "A background job delivered by QStash (Upstash-Signature verified)",
  description:
    "Jobs: `agent-run` `{pipeline_id}` runs (or resumes) an agent pipeline; `discovery-run` " +
    "`{job_id}` runs a background discovery search. The signature is " +
    "checked against the raw body and PUBLIC_BASE_URL + path (unset: 503). Any non-2xx answer is " +
    "retried by QStash; a run that is already finished or held answers 200 as well, and so does a " +
    "replay of a delivery already run (its signed token's `jti` is recorded), without running.",
  request: { params: JobParam },
  responses: {
    200: json(JobDoneSchema, "Done"),
    401: errorResponse(ErrorSchema, "Missing or invalid Upstash-Signature"),
    404: errorResponse(ErrorSchema, "No such job"),
    503: errorResponse(ErrorSchema, "QStash signing keys or PUBLIC_BASE_URL are not configured"),
  },
});

/** Background steps delivered by QStash: POST /api/v1/jobs/:name, QStash-signed. */
export function createJobRoutes() {
  const router = createRouter();
  router.openapi(runJobRoute, async (c) => {
    const deps = c.get("deps");
    if (!qstashVerifying(deps.config)) {
      throw new ApiError(503, "Background jobs are not configured");
    }
    // QStash signs the URL it delivered to. Only the configured public origin says what that
    // is: the request's Host header is the sender's to choose.
    const origin = deps.config.PUBLIC_BASE_URL.trim().replace(/\/+$/, "");
    if (!origin) throw new ApiError(503, "Background jobs are not configured");
    const body = await c.req.text();
    const delivery = await verifyJobSignature(deps.config, {
      signature: c.req.header("Upstash-Signature"),
      body,
      url: `${origin}${c.req.path}`,
    });
    if (!delivery)
      throw new ApiError(401, "Invalid or missing Upstash-Signature", {
        code: "signature_invalid",
      });
    const job = JOBS.get(c.req.valid("param").name);
    if (!job) throw notFound("No such job");
    let payload: unknown;
    try {
      payload = body === "" ? {} : JSON.parse(body);
    } catch {
      throw validationError([{ loc: ["body"], msg: "Not valid JSON", type: "value_error" }]);
    }
    // A delivery already run (its signed token seen before) is a replay: answered, not run.
    if (!(await claimDelivery(deps, delivery, c.req.header("Upstash-Message-Id")))) {
      deps.logger.info("qstash delivery replayed", { job: c.req.valid("param").name });
      return c.json({ ok: true as const }, 200);
    }
    try {
      await job(deps, payload);
    } catch (error) {
      await releaseDelivery(deps, delivery.jti);
      throw error;
    }
    return c.json({ ok: true as const }, 200);
  });
  return router;
}

import type { z } from "@hono/zod-openapi";
import { notFound } from "../../../http/errors";
import { iso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import { findRun, listRunsPage, type RunRow } from "../queries";
import type { PipelineSchema } from "../schemas";

/**
 * Reading the agent runs the caller sees (GET /agent/pipelines, GET /agent/{id}): their own, or
 * every one of the organisation for a manager and above.
 */

type PipelineData = z.output<typeof PipelineSchema>["pipeline_data"];

/** jsonb as the driver hands it over: parsed, or (some drivers) as text. */
const parsedJson = <T>(value: unknown): T =>
  (typeof value === "string" ? JSON.parse(value) : value) as T;

const base = (r: RunRow) => ({
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
  credits_charged: r.credits_charged ?? 0,
  max_credits: r.max_credits,
  org_id: r.org_id,
  user_id: r.user_id,
  owner_name: r.owner_name,
});

export async function listPipelines(
  deps: Deps,
  userId: string,
  query: { page: number; size: number },
) {
  const { rows, total } = await listRunsPage(deps.db, { userId, ...query });
  return {
    items: rows.map((r) => ({
      ...base(r),
      summary: parsedJson<{
        leads: number;
        drafted: number;
        saved: number;
        duplicates: number;
      } | null>(r.summary),
    })),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function getPipeline(deps: Deps, userId: string, id: string) {
  const row = await findRun(deps.db, { userId, id });
  if (!row) throw notFound("Pipeline not found");
  const data = parsedJson<Partial<PipelineData>>(row.pipeline_data);
  return {
    ...base(row),
    pipeline_data: {
      stages: data.stages ?? [],
      leads: data.leads ?? [],
      summary: data.summary ?? null,
    },
  };
}

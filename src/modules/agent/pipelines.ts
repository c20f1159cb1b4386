import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { PipelineStatus } from "../../db/schema/discovery";
import type { Deps } from "../../deps";
import { notFound } from "../../http/errors";
import { iso } from "../../lib/clock";
import type { PipelineSchema } from "./schemas";

/** Reading the caller's agent runs (GET /agent/pipelines, GET /agent/{id}). */

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

export async function listPipelines(
  deps: Deps,
  userId: string,
  query: { page: number; size: number },
) {
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

export async function getPipeline(deps: Deps, userId: string, id: string) {
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

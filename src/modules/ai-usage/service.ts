import { validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { type AiCallFilters, type AiCallListRow, listAiCallsPage } from "../ai/queries";

/**
 * The AI calls on record (issue #24 item 7, ADR 0114): a user's own (manager+: their
 * organisation's), and every call for the admin. The rows are written by modules/ai
 * (call-log.ts); this module reads them.
 */

interface ListQuery {
  page: number;
  size: number;
  task?: string | undefined;
  outcome?: string | undefined;
  provider?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

function filtersOf(query: ListQuery): AiCallFilters {
  if (query.start_date && query.end_date && query.start_date > query.end_date) {
    throw validationError([
      { loc: ["query", "start_date"], msg: "start_date is after end_date", type: "value_error" },
    ]);
  }
  return {
    task: query.task,
    outcome: query.outcome,
    provider: query.provider,
    startDate: query.start_date,
    endDate: query.end_date,
  };
}

const item = (row: AiCallListRow) => ({
  id: row.id,
  task: row.task,
  provider: row.provider,
  model: row.model,
  tokens_in: row.tokens_in,
  tokens_out: row.tokens_out,
  latency_ms: row.latency_ms,
  outcome: row.outcome,
  credits: Number(row.credits),
  user_id: row.user_id,
  created_at: iso(row.created_at),
});

/** GET /ai/usage: the caller's calls; a manager, admin or owner sees the organisation's. */
export async function listAiUsage(deps: Deps, userId: string, query: ListQuery) {
  const { rows, total } = await listAiCallsPage(deps.db, {
    ...filtersOf(query),
    viewer: userId,
    page: query.page,
    size: query.size,
  });
  return { items: rows.map(item), total, page: query.page, size: query.size };
}

/** GET /admin/ai-calls: every call, with its organisation and consumption. */
export async function listAdminAiCalls(deps: Deps, query: ListQuery) {
  const { rows, total } = await listAiCallsPage(deps.db, {
    ...filtersOf(query),
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((row) => ({
      ...item(row),
      org_id: row.org_id,
      consumption_id: row.consumption_id,
    })),
    total,
    page: query.page,
    size: query.size,
  };
}

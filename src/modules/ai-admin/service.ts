import type { AiProviderKind, QuotaPeriod } from "../../db/schema";
import { notFound, type ValidationIssue, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { pgErrorCode } from "../../lib/db-errors";
import { escapeLike } from "../../lib/sql-text";
import type { Deps } from "../../ports";
import { type Actor, changedFields, rethrowUnique } from "../admin/writes";
import {
  deleteQuotaRow,
  getQuotaRow,
  insertQuota,
  listQuotaRows,
  type QuotaChange,
  type QuotaRow,
  updateQuotaRow,
} from "../ai/queries";
import { AI_TASKS, type AiTask, llmCandidates } from "../ai/routing";
import { createProviderAdmin } from "../provider-admin/service";
import { getConfigEntry } from "../system-config/queries/config-entry";
import {
  type AiProviderExtra,
  aiProviderTable,
  deleteFaqRow,
  type FaqRow,
  getFaqRow,
  insertFaq,
  listFaqRows,
  providerKinds,
  storeRouting,
  updateFaqRow,
} from "./queries";
import type {
  FaqInput,
  FaqPatchInput,
  ProviderInput,
  ProviderPatchInput,
  QuotaInput,
  QuotaPatchInput,
} from "./schemas";

const page = <T>(query: { page: number; size: number }, result: { rows: T[]; total: number }) => ({
  items: result.rows,
  total: result.total,
  page: query.page,
  size: query.size,
});

// ---------------------------------------------------------------- AI providers

/** The AI provider admin (provider-admin/, shared with the search providers' admin). */
export const aiProviderAdmin = createProviderAdmin<
  typeof aiProviderTable.table,
  ProviderInput,
  ProviderPatchInput,
  AiProviderExtra
>({
  ...aiProviderTable,
  audit: "ai_provider",
  deleteFields: ["name", "kind", "base_url", "api_key", "models", "enabled", "timeout_ms"],
  messages: {
    notFound: "AI provider not found",
    nameTaken: (name) => `An AI provider named ${name} exists`,
    changed: "The AI provider changed meanwhile; try again",
  },
  // An llm provider keeps at least one model: the guard is in the update statement.
  kindGuard: {
    kind: "llm",
    refuses: (patch) => patch.models?.length === 0,
    issue: {
      loc: ["body", "models"],
      msg: "An llm provider needs at least one model",
      type: "custom",
    },
  },
});

// ---------------------------------------------------------------- AI routing

type Routing = Record<AiTask, string[]>;

function completeRouting(value: unknown): Routing {
  const stored = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  return Object.fromEntries(
    AI_TASKS.map((task) => {
      const list = stored[task];
      return [task, Array.isArray(list) ? list.map(String) : []];
    }),
  ) as Routing;
}

/** What each task will actually run, from the same query the AI features use. */
async function effectiveRouting(deps: Deps) {
  const lists = await Promise.all(AI_TASKS.map((task) => llmCandidates(deps, task)));
  return Object.fromEntries(
    AI_TASKS.map((task, i) => [
      task,
      lists[i]!.map((row) => ({ provider: row.name, model: row.model! })),
    ]),
  ) as Record<AiTask, { provider: string; model: string }[]>;
}

export async function getRouting(deps: Deps) {
  const [row, effective] = await Promise.all([
    getConfigEntry(deps.db, { key: "ai.routing" }),
    effectiveRouting(deps),
  ]);
  return {
    routing: completeRouting(row?.value),
    effective,
    updated_at: row ? iso(row.updated_at) : null,
  };
}

/**
 * Replaces `ai.routing` (already shape-checked by the shared schema) after checking that every
 * entry names an existing llm provider; a 422 names each bad entry at `["body", task, index]`.
 */
export async function putRouting(deps: Deps, actor: Actor, routing: Routing) {
  const names = [...new Set(Object.values(routing).flatMap((list) => list.map(providerOf)))];
  const known = new Map(
    (await providerKinds(deps.db, { names })).map((r): [string, AiProviderKind] => [
      r.name,
      r.kind,
    ]),
  );
  const issues: ValidationIssue[] = [];
  for (const task of AI_TASKS) {
    routing[task].forEach((entry, index) => {
      const kind = known.get(providerOf(entry));
      if (kind === "llm") return;
      issues.push({
        loc: ["body", task, index],
        msg:
          kind === undefined
            ? `${entry}: no AI provider named ${providerOf(entry)}`
            : `${entry}: ${providerOf(entry)} is an ${kind} provider; routing takes llm providers`,
        type: "unknown_provider",
      });
    });
  }
  if (issues.length > 0) throw validationError(issues);
  await storeRouting(deps.db, { routing, at: nowIso(deps), actor, fields: AI_TASKS });
  return getRouting(deps);
}

const providerOf = (entry: string) => entry.split(":", 1)[0]!;

// ---------------------------------------------------------------- translation quotas

const quotaOut = (r: QuotaRow) => ({
  ...r,
  period_start: iso(r.period_start),
  resets_at: iso(r.resets_at),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listQuotas(
  deps: Deps,
  query: {
    page: number;
    size: number;
    provider_id?: string;
    period?: QuotaPeriod;
    enabled?: boolean;
  },
) {
  const result = await listQuotaRows(deps.db, { ...query, now: nowIso(deps) });
  return page(query, { ...result, rows: result.rows.map(quotaOut) });
}

export async function getQuota(deps: Deps, id: string) {
  const row = await getQuotaRow(deps.db, { id, now: nowIso(deps) });
  if (!row) throw notFound("Translation quota not found");
  return quotaOut(row);
}

const duplicateQuota = "This provider already has a quota for that period";

export async function createQuota(deps: Deps, actor: Actor, input: QuotaInput) {
  const row = await insertQuota(deps.db, {
    ...input,
    now: nowIso(deps),
    actor,
    audit: {
      action: "translation_quota.create",
      target: "translation_quota",
      kind: "create",
      fields: changedFields(input),
    },
  }).catch((error) => {
    if (pgErrorCode(error) === "23503") {
      throw validationError([
        { loc: ["body", "provider_id"], msg: "No AI provider with this id", type: "not_found" },
      ]);
    }
    return rethrowUnique(duplicateQuota)(error);
  });
  return quotaOut(row);
}

/** A new period counts from the start of the current UTC period of that length. */
export async function updateQuota(deps: Deps, actor: Actor, id: string, patch: QuotaPatchInput) {
  const fields = changedFields(patch);
  if (patch.period) fields.push("period_start");
  return writeQuota(deps, actor, id, "update", fields, { patch });
}

/** Starts the current UTC day or month afresh. */
export async function resetQuota(deps: Deps, actor: Actor, id: string) {
  return writeQuota(deps, actor, id, "reset", ["chars_used", "period_start"], { reset: true });
}

async function writeQuota(
  deps: Deps,
  actor: Actor,
  id: string,
  action: string,
  fields: string[],
  change: QuotaChange,
) {
  const row = await updateQuotaRow(deps.db, {
    id,
    change,
    now: nowIso(deps),
    actor,
    audit: {
      action: `translation_quota.${action}`,
      target: "translation_quota",
      kind: "update",
      fields,
    },
  }).catch(rethrowUnique(duplicateQuota));
  if (!row) throw notFound("Translation quota not found");
  return quotaOut(row);
}

export async function deleteQuota(deps: Deps, actor: Actor, id: string) {
  const existed = await deleteQuotaRow(deps.db, {
    id,
    actor,
    audit: {
      action: "translation_quota.delete",
      target: "translation_quota",
      kind: "delete",
      fields: ["provider_id", "period", "char_limit", "chars_used", "enabled"],
    },
  });
  if (!existed) throw notFound("Translation quota not found");
}

// ---------------------------------------------------------------- FAQ

const faqOut = (r: FaqRow) => ({
  ...r,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listFaqs(
  deps: Deps,
  query: { page: number; size: number; enabled?: boolean; q?: string },
) {
  const result = await listFaqRows(deps.db, {
    page: query.page,
    size: query.size,
    enabled: query.enabled,
    pattern: query.q ? `%${escapeLike(query.q)}%` : undefined,
  });
  return page(query, { ...result, rows: result.rows.map(faqOut) });
}

export async function getFaq(deps: Deps, id: string) {
  const row = await getFaqRow(deps.db, { id });
  if (!row) throw notFound("FAQ not found");
  return faqOut(row);
}

export async function createFaq(deps: Deps, actor: Actor, input: FaqInput) {
  const row = await insertFaq(deps.db, {
    ...input,
    at: nowIso(deps),
    actor,
    audit: { action: "faq.create", target: "faq", kind: "create", fields: changedFields(input) },
  });
  return faqOut(row);
}

export async function updateFaq(deps: Deps, actor: Actor, id: string, patch: FaqPatchInput) {
  const row = await updateFaqRow(deps.db, {
    id,
    patch,
    at: nowIso(deps),
    actor,
    audit: { action: "faq.update", target: "faq", kind: "update", fields: changedFields(patch) },
  });
  if (!row) throw notFound("FAQ not found");
  return faqOut(row);
}

export async function deleteFaq(deps: Deps, actor: Actor, id: string) {
  const existed = await deleteFaqRow(deps.db, {
    id,
    actor,
    audit: {
      action: "faq.delete",
      target: "faq",
      kind: "delete",
      fields: ["question", "answer", "keywords", "enabled", "sort_order"],
    },
  });
  if (!existed) throw notFound("FAQ not found");
}

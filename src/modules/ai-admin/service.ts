import { type SQL, sql } from "drizzle-orm";
import { pgErrorCode, queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { AiProviderKind, QuotaPeriod } from "../../db/schema";
import type { Deps } from "../../deps";
import { conflict, notFound, type ValidationIssue, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { escapeLike } from "../../lib/sql-text";
import {
  type Actor,
  apiKeySets,
  assertOutboundUrl,
  auditCte,
  changedFields,
  KEY_REBIND_ISSUE,
  lockBefore,
  patchSets,
  rethrowUnique,
  type SecretState,
  sealedKey,
  secretAfter,
} from "../admin/writes";
import { AI_TASKS, type AiTask, llmCandidates } from "../ai/routing";
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

interface ProviderRow {
  id: string;
  name: string;
  kind: AiProviderKind;
  base_url: string;
  api_key_set: boolean;
  api_key_hint: string | null;
  models: string[];
  enabled: boolean;
  timeout_ms: number;
  created_at: Date;
  updated_at: Date;
}

/** Never the ciphertext: whether a key is set and its last 4 characters. */
const PROVIDER_COLUMNS = sql.raw(`id, name, kind, base_url,
  api_key_ciphertext is not null as api_key_set, api_key_hint, models, enabled, timeout_ms,
  created_at, updated_at`);

/** The audit row shows whether a key is stored, never the key or its ciphertext. */
const apiKeySecret = (after?: SecretState) => ({
  api_key: { column: "api_key_ciphertext", after },
});
const PROVIDER_FIELDS = ["name", "kind", "base_url", "api_key", "models", "enabled", "timeout_ms"];

const providerOut = (r: ProviderRow) => ({
  ...r,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listProviders(
  deps: Deps,
  query: { page: number; size: number; kind?: AiProviderKind; enabled?: boolean },
) {
  const filters: SQL[] = [sql`true`];
  if (query.kind) filters.push(sql`kind = ${query.kind}`);
  if (query.enabled !== undefined) filters.push(sql`enabled = ${query.enabled}`);
  const result = await selectPage<ProviderRow>(deps.db, {
    columns: PROVIDER_COLUMNS,
    from: sql`ai_providers`,
    where: sql.join(filters, sql` and `),
    order: sql`name, id`,
    page: query.page,
    size: query.size,
  });
  return page(query, { ...result, rows: result.rows.map(providerOut) });
}

export async function getProvider(deps: Deps, id: string) {
  const [row] = await queryRows<ProviderRow>(
    deps.db,
    sql`select ${PROVIDER_COLUMNS} from ai_providers where id = ${id}`,
  );
  if (!row) throw notFound("AI provider not found");
  return providerOut(row);
}

export async function createProvider(deps: Deps, actor: Actor, input: ProviderInput) {
  assertOutboundUrl(deps.config, input.base_url);
  const key = await sealedKey(deps.keys.encryption, input.api_key);
  const [row] = await queryRows<ProviderRow>(
    deps.db,
    sql`with w as (
        insert into ai_providers (name, kind, base_url, api_key_ciphertext, api_key_hint, models,
          enabled, timeout_ms, created_at, updated_at)
        values (${input.name}, ${input.kind}, ${input.base_url}, ${key.ciphertext},
          ${key.hint}, ${JSON.stringify(input.models)}::jsonb,
          ${input.enabled}, ${input.timeout_ms}, ${nowIso(deps)}::timestamptz,
          ${nowIso(deps)}::timestamptz)
        returning *),
      ${auditCte(actor, {
        action: "ai_provider.create",
        target: "ai_provider",
        rows: sql`w`,
        kind: "create",
        fields: changedFields(input),
        secrets: apiKeySecret(),
      })}
      select ${PROVIDER_COLUMNS} from w`,
  ).catch(rethrowUnique(`An AI provider named ${input.name} exists`));
  return providerOut(row!);
}

export async function updateProvider(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: ProviderPatchInput,
) {
  assertOutboundUrl(deps.config, patch.base_url);
  const updates = patchSets(["name", "base_url", "enabled", "timeout_ms"], patch);
  if (patch.models) updates.push(sql`models = ${JSON.stringify(patch.models)}::jsonb`);
  updates.push(...(await apiKeySets(deps.keys.encryption, patch.api_key)));
  updates.push(sql`updated_at = ${nowIso(deps)}::timestamptz`);
  // An llm provider keeps at least one model: the guard is in the same statement.
  const emptyModels = patch.models?.length === 0;
  // A stored key belongs to the host it was entered for: a new base_url needs the key again,
  // or an admin session alone could send it anywhere. Guarded in the statement, like models.
  const rebindsKey = patch.base_url !== undefined && patch.api_key === undefined;
  const keyStaysBound = rebindsKey
    ? sql`(ai_providers.base_url = ${patch.base_url} or ai_providers.api_key_ciphertext is null)`
    : sql`true`;
  const old = lockBefore("ai_providers", id);
  const [row] = await queryRows<ProviderRow>(
    deps.db,
    sql`with w as (
        update ai_providers set ${sql.join(updates, sql`, `)} from ${old.from}
        where ${old.where} and (kind <> 'llm' or not ${emptyModels}) and ${keyStaysBound}
        returning *),
      ${auditCte(actor, {
        action: "ai_provider.update",
        target: "ai_provider",
        rows: sql`w`,
        kind: "update",
        fields: changedFields(patch),
        secrets: apiKeySecret(secretAfter(patch.api_key)),
      })}
      select ${PROVIDER_COLUMNS} from w`,
  ).catch(rethrowUnique(`An AI provider named ${patch.name} exists`));
  if (row) return providerOut(row);
  if (!emptyModels && !rebindsKey) throw notFound("AI provider not found");
  const current = await getProvider(deps, id); // 404 when there is no such provider
  const issues: ValidationIssue[] = [];
  if (emptyModels && current.kind === "llm") {
    issues.push({
      loc: ["body", "models"],
      msg: "An llm provider needs at least one model",
      type: "custom",
    });
  }
  if (rebindsKey && current.base_url !== patch.base_url && current.api_key_set) {
    issues.push(KEY_REBIND_ISSUE);
  }
  // Neither guard fails on the row as read now: a concurrent write changed it in between.
  if (issues.length === 0) throw conflict("The AI provider changed meanwhile; try again");
  throw validationError(issues);
}

/** Its quotas go with it (foreign key cascade); routing entries naming it are then skipped. */
export async function deleteProvider(deps: Deps, actor: Actor, id: string) {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`with w as (delete from ai_providers where id = ${id} returning *),
      ${auditCte(actor, {
        action: "ai_provider.delete",
        target: "ai_provider",
        rows: sql`w`,
        kind: "delete",
        fields: PROVIDER_FIELDS,
        secrets: apiKeySecret(),
      })}
      select id from w`,
  );
  if (rows.length === 0) throw notFound("AI provider not found");
}

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
  const [[row], effective] = await Promise.all([
    queryRows<{ value: unknown; updated_at: Date }>(
      deps.db,
      sql`select value, updated_at from system_config where key = 'ai.routing'`,
    ),
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
    (
      await queryRows<{ name: string; kind: AiProviderKind }>(
        deps.db,
        sql`select name, kind from ai_providers
            where name in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))`,
      )
    ).map((r) => [r.name, r.kind]),
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
  await queryRows(
    deps.db,
    sql`with w as (
        insert into system_config (key, value, updated_at, updated_by)
        values ('ai.routing', ${JSON.stringify(routing)}::jsonb, ${nowIso(deps)}::timestamptz,
          ${actor.id})
        on conflict (key) do update set value = excluded.value,
          updated_at = excluded.updated_at, updated_by = excluded.updated_by
        returning key, value),
      ${auditCte(actor, {
        action: "ai_routing.update",
        target: "system_config",
        // The statement's snapshot: the value this write replaced.
        rows: sql`(select w.key as id, w.value as audit_after,
          (select value from system_config where key = 'ai.routing') as audit_before from w)`,
        kind: "custom",
        before: sql`r.audit_before`,
        after: sql`r.audit_after`,
        fields: AI_TASKS,
      })}
      select key from w`,
  );
  return getRouting(deps);
}

const providerOf = (entry: string) => entry.split(":", 1)[0]!;

// ---------------------------------------------------------------- translation quotas

interface QuotaRow {
  id: string;
  provider_id: string;
  provider_name: string;
  tier: AiProviderKind;
  period: QuotaPeriod;
  char_limit: number;
  chars_used: number;
  remaining: number;
  period_start: Date;
  resets_at: Date;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The start of the UTC day or month containing `at`. */
const periodStartAt = (period: SQL, at: string) =>
  sql`date_trunc(${period}, ${at}::timestamptz at time zone 'UTC') at time zone 'UTC'`;
const periodEnd = (start: SQL, period: SQL) =>
  sql`((${start} at time zone 'UTC') + ('1 ' || ${period})::interval) at time zone 'UTC'`;

/**
 * Quota rows `q` as shown at `now`, with their provider `p`: a stored period that has ended
 * reads as the current period with nothing used (the counter itself rolls over on the next use).
 */
function quotaSource(deps: Deps, quotas: SQL) {
  const now = nowIso(deps);
  return sql`${quotas} q join ai_providers p on p.id = q.provider_id
    cross join lateral (
      select ${periodEnd(sql`q.period_start`, sql`q.period`)} <= ${now}::timestamptz as rolled) r
    cross join lateral (
      select case when r.rolled then ${periodStartAt(sql`q.period`, now)} else q.period_start end
        as period_start,
        case when r.rolled then 0 else q.chars_used end as chars_used) e`;
}

const QUOTA_COLUMNS = sql`q.id, q.provider_id, p.name as provider_name, p.kind as tier, q.period,
  q.char_limit, e.chars_used, greatest(q.char_limit - e.chars_used, 0) as remaining,
  e.period_start, ${periodEnd(sql`e.period_start`, sql`q.period`)} as resets_at, q.enabled,
  q.created_at, q.updated_at`;

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
  const filters: SQL[] = [sql`true`];
  if (query.provider_id) filters.push(sql`q.provider_id = ${query.provider_id}`);
  if (query.period) filters.push(sql`q.period = ${query.period}`);
  if (query.enabled !== undefined) filters.push(sql`q.enabled = ${query.enabled}`);
  const result = await selectPage<QuotaRow>(deps.db, {
    columns: QUOTA_COLUMNS,
    from: quotaSource(deps, sql`translation_quotas`),
    where: sql.join(filters, sql` and `),
    order: sql`p.name, q.period, q.id`,
    page: query.page,
    size: query.size,
  });
  return page(query, { ...result, rows: result.rows.map(quotaOut) });
}

export async function getQuota(deps: Deps, id: string) {
  const [row] = await queryRows<QuotaRow>(
    deps.db,
    sql`select ${QUOTA_COLUMNS} from ${quotaSource(deps, sql`translation_quotas`)}
        where q.id = ${id}`,
  );
  if (!row) throw notFound("Translation quota not found");
  return quotaOut(row);
}

const duplicateQuota = "This provider already has a quota for that period";

export async function createQuota(deps: Deps, actor: Actor, input: QuotaInput) {
  const now = nowIso(deps);
  const [row] = await queryRows<QuotaRow>(
    deps.db,
    sql`with w as (
        insert into translation_quotas (provider_id, period, char_limit, enabled, period_start,
          created_at, updated_at)
        values (${input.provider_id}, ${input.period}, ${input.char_limit}, ${input.enabled},
          ${periodStartAt(sql`${input.period}::text`, now)}, ${now}::timestamptz,
          ${now}::timestamptz)
        returning *),
      ${auditCte(actor, {
        action: "translation_quota.create",
        target: "translation_quota",
        rows: sql`w`,
        kind: "create",
        fields: changedFields(input),
      })}
      select ${QUOTA_COLUMNS} from ${quotaSource(deps, sql`w`)}`,
  ).catch((error) => {
    if (pgErrorCode(error) === "23503") {
      throw validationError([
        { loc: ["body", "provider_id"], msg: "No AI provider with this id", type: "not_found" },
      ]);
    }
    return rethrowUnique(duplicateQuota)(error);
  });
  return quotaOut(row!);
}

/** A new period counts from the start of the current UTC period of that length. */
export async function updateQuota(deps: Deps, actor: Actor, id: string, patch: QuotaPatchInput) {
  const now = nowIso(deps);
  const updates = patchSets(["char_limit", "enabled"], patch);
  if (patch.period) {
    updates.push(sql`period = ${patch.period},
      period_start = case when period = ${patch.period} then period_start
        else ${periodStartAt(sql`${patch.period}::text`, now)} end`);
  }
  updates.push(sql`updated_at = ${now}::timestamptz`);
  const fields = changedFields(patch);
  if (patch.period) fields.push("period_start");
  return writeQuota(deps, actor, id, "update", fields, updates);
}

/** Starts the current UTC day or month afresh. */
export async function resetQuota(deps: Deps, actor: Actor, id: string) {
  const now = nowIso(deps);
  return writeQuota(
    deps,
    actor,
    id,
    "reset",
    ["chars_used", "period_start"],
    [
      sql`chars_used = 0, period_start = ${periodStartAt(sql`period`, now)},
      updated_at = ${now}::timestamptz`,
    ],
  );
}

async function writeQuota(
  deps: Deps,
  actor: Actor,
  id: string,
  action: string,
  fields: string[],
  updates: SQL[],
) {
  const old = lockBefore("translation_quotas", id);
  const [row] = await queryRows<QuotaRow>(
    deps.db,
    sql`with w as (
        update translation_quotas set ${sql.join(updates, sql`, `)} from ${old.from}
        where ${old.where}
        returning *),
      ${auditCte(actor, {
        action: `translation_quota.${action}`,
        target: "translation_quota",
        rows: sql`w`,
        kind: "update",
        fields,
      })}
      select ${QUOTA_COLUMNS} from ${quotaSource(deps, sql`w`)}`,
  ).catch(rethrowUnique(duplicateQuota));
  if (!row) throw notFound("Translation quota not found");
  return quotaOut(row);
}

export async function deleteQuota(deps: Deps, actor: Actor, id: string) {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`with w as (delete from translation_quotas where id = ${id} returning *),
      ${auditCte(actor, {
        action: "translation_quota.delete",
        target: "translation_quota",
        rows: sql`w`,
        kind: "delete",
        fields: ["provider_id", "period", "char_limit", "chars_used", "enabled"],
      })}
      select id from w`,
  );
  if (rows.length === 0) throw notFound("Translation quota not found");
}

// ---------------------------------------------------------------- FAQ

interface FaqRow {
  id: string;
  question: string;
  answer: string;
  keywords: string[];
  enabled: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

const FAQ_COLUMNS = sql.raw(
  "id, question, answer, keywords, enabled, sort_order, created_at, updated_at",
);
const faqOut = (r: FaqRow) => ({
  ...r,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listFaqs(
  deps: Deps,
  query: { page: number; size: number; enabled?: boolean; q?: string },
) {
  const filters: SQL[] = [sql`true`];
  if (query.enabled !== undefined) filters.push(sql`enabled = ${query.enabled}`);
  if (query.q) filters.push(sql`question ilike ${`%${escapeLike(query.q)}%`}`);
  const result = await selectPage<FaqRow>(deps.db, {
    columns: FAQ_COLUMNS,
    from: sql`faqs`,
    where: sql.join(filters, sql` and `),
    order: sql`sort_order, id`,
    page: query.page,
    size: query.size,
  });
  return page(query, { ...result, rows: result.rows.map(faqOut) });
}

export async function getFaq(deps: Deps, id: string) {
  const [row] = await queryRows<FaqRow>(
    deps.db,
    sql`select ${FAQ_COLUMNS} from faqs where id = ${id}`,
  );
  if (!row) throw notFound("FAQ not found");
  return faqOut(row);
}

export async function createFaq(deps: Deps, actor: Actor, input: FaqInput) {
  const now = nowIso(deps);
  const [row] = await queryRows<FaqRow>(
    deps.db,
    sql`with w as (
        insert into faqs (question, answer, keywords, enabled, sort_order, created_at, updated_at)
        values (${input.question}, ${input.answer}, ${JSON.stringify(input.keywords)}::jsonb,
          ${input.enabled}, ${input.sort_order}, ${now}::timestamptz, ${now}::timestamptz)
        returning *),
      ${auditCte(actor, {
        action: "faq.create",
        target: "faq",
        rows: sql`w`,
        kind: "create",
        fields: changedFields(input),
      })}
      select ${FAQ_COLUMNS} from w`,
  );
  return faqOut(row!);
}

export async function updateFaq(deps: Deps, actor: Actor, id: string, patch: FaqPatchInput) {
  const updates = patchSets(["question", "answer", "enabled", "sort_order"], patch);
  if (patch.keywords) updates.push(sql`keywords = ${JSON.stringify(patch.keywords)}::jsonb`);
  updates.push(sql`updated_at = ${nowIso(deps)}::timestamptz`);
  const old = lockBefore("faqs", id);
  const [row] = await queryRows<FaqRow>(
    deps.db,
    sql`with w as (
        update faqs set ${sql.join(updates, sql`, `)} from ${old.from} where ${old.where}
        returning *),
      ${auditCte(actor, {
        action: "faq.update",
        target: "faq",
        rows: sql`w`,
        kind: "update",
        fields: changedFields(patch),
      })}
      select ${FAQ_COLUMNS} from w`,
  );
  if (!row) throw notFound("FAQ not found");
  return faqOut(row);
}

export async function deleteFaq(deps: Deps, actor: Actor, id: string) {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`with w as (delete from faqs where id = ${id} returning *),
      ${auditCte(actor, {
        action: "faq.delete",
        target: "faq",
        rows: sql`w`,
        kind: "delete",
        fields: ["question", "answer", "keywords", "enabled", "sort_order"],
      })}
      select id from w`,
  );
  if (rows.length === 0) throw notFound("FAQ not found");
}

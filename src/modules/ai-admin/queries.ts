import { type Column, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import { aiProviders, faqs, searchProviders, systemConfig } from "../../db/schema";
import { col, columnList, type DbRow } from "../../db/sql";
import { type Actor, type AuditedWrite, auditCte, lockBefore } from "../admin/queries/audit";
import {
  previousConfigValueSql,
  upsertConfigCte,
  upsertedConfig,
} from "../system-config/queries/config-entry";

/** The SQL of the tables ai-admin owns: ai_providers and faqs. */

// ---------------------------------------------------------------- AI providers

/** The provider admin's table (provider-admin/): the models column besides the common ones. */
export const aiProviderTable = {
  table: aiProviders,
  extraColumns: [aiProviders.models],
  extraValues: (body: { models?: string[] | undefined }): [Column, SQL][] =>
    body.models ? [[aiProviders.models, sql`${JSON.stringify(body.models)}::jsonb`]] : [],
};

/** The AI providers' column besides the provider admin's common ones. */
export type AiProviderExtra = Pick<DbRow<typeof aiProviders>, "models">;

/** A provider as the AI features call it: its key still sealed, the model chosen. */
export type AiProviderTarget = Pick<
  DbRow<typeof aiProviders>,
  "id" | "name" | "kind" | "base_url" | "api_key_ciphertext" | "timeout_ms"
> & { model: string | null };

/**
 * The LLM candidates for a task, in order, in one query: the task's `ai.routing` entries
 * (`name` or `name:model`; a name alone means the provider's first model) joined with the
 * enabled llm providers; entries naming a missing or disabled provider are skipped. An empty
 * routing list means every enabled llm provider, by name, each with its first model.
 */
export function llmCandidates(db: Db, { task }: { task: string }) {
  const p = alias(aiProviders, "p");
  const c = alias(systemConfig, "c");
  const a = aiProviders;
  return queryRows<AiProviderTarget>(
    db,
    sql`with routing as (
        select e.entry, e.n from ${systemConfig} ${c},
          jsonb_array_elements_text(coalesce(${c.value} -> ${task}, '[]'::jsonb))
            with ordinality as e(entry, n)
        where ${c.key} = 'ai.routing'),
      candidates as (
        select ${p.id}, ${p.name}, ${p.kind}, ${p.baseUrl}, ${p.apiKeyCiphertext}, ${p.timeoutMs},
          coalesce(nullif(substr(r.entry, length(split_part(r.entry, ':', 1)) + 2), ''),
                   ${p.models} ->> 0) as model, r.n as ord
        from routing r join ${aiProviders} ${p} on ${p.name} = split_part(r.entry, ':', 1)
        where ${p.enabled} and ${p.kind} = 'llm'
        union all
        select ${a.id}, ${a.name}, ${a.kind}, ${a.baseUrl}, ${a.apiKeyCiphertext}, ${a.timeoutMs},
          ${a.models} ->> 0, null
        from ${a}
        where ${a.enabled} and ${a.kind} = 'llm' and not exists (select 1 from routing))
      select id, name, kind, base_url, api_key_ciphertext, timeout_ms, model
      from candidates where model is not null order by ord nulls last, name`,
  );
}

/** The enabled machine-translation providers, by name. */
export function mtProviders(db: Db) {
  const a = aiProviders;
  return queryRows<AiProviderTarget>(
    db,
    sql`select ${a.id}, ${a.name}, ${a.kind}, ${a.baseUrl}, ${a.apiKeyCiphertext}, ${a.timeoutMs},
          null as model
        from ${a} where ${a.enabled} and ${a.kind} = 'mt' order by ${a.name}`,
  );
}

/** One query: whether any enabled provider of each kind exists (search ones included). */
export async function configuredProviders(db: Db) {
  const a = aiProviders;
  const s = searchProviders;
  const [row] = await queryRows<{ llm: boolean; mt: boolean; search: boolean }>(
    db,
    sql`select exists (select 1 from ${a} where ${a.enabled} and ${a.kind} = 'llm') as llm,
          exists (select 1 from ${a} where ${a.enabled} and ${a.kind} = 'mt') as mt,
          exists (select 1 from ${s} where ${s.enabled}) as search`,
  );
  return row;
}

/** The providers among `names` that exist, with their kinds. */
export function providerKinds(db: Db, { names }: { names: string[] }) {
  const a = aiProviders;
  return queryRows<Pick<DbRow<typeof aiProviders>, "name" | "kind">>(
    db,
    sql`select ${a.name}, ${a.kind} from ${a}
        where ${a.name} in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))`,
  );
}

// ---------------------------------------------------------------- FAQ

export type FaqRow = Pick<
  DbRow<typeof faqs>,
  "id" | "question" | "answer" | "keywords" | "enabled" | "sort_order" | "created_at" | "updated_at"
>;

const f = faqs;
const FAQ_COLUMNS = [
  f.id,
  f.question,
  f.answer,
  f.keywords,
  f.enabled,
  f.sortOrder,
  f.createdAt,
  f.updatedAt,
] as const;
const faqColumns = columnList(FAQ_COLUMNS);
const writtenFaqColumns = sql.join(
  FAQ_COLUMNS.map((c) => sql`w.${col(c)}`),
  sql`, `,
);

export function listFaqRows(
  db: Db,
  query: {
    page: number;
    size: number;
    enabled?: boolean | undefined;
    pattern?: string | undefined;
  },
) {
  const filters: SQL[] = [sql`true`];
  if (query.enabled !== undefined) filters.push(sql`${f.enabled} = ${query.enabled}`);
  if (query.pattern) filters.push(sql`${f.question} ilike ${query.pattern}`);
  return selectPage<FaqRow>(db, {
    columns: faqColumns,
    from: sql`${f}`,
    where: sql.join(filters, sql` and `),
    order: sql`${f.sortOrder}, ${f.id}`,
    page: query.page,
    size: query.size,
  });
}

export async function getFaqRow(db: Db, { id }: { id: string }) {
  const [row] = await queryRows<FaqRow>(
    db,
    sql`select ${faqColumns} from ${f} where ${f.id} = ${id}`,
  );
  return row;
}

type Audit = Omit<AuditedWrite, "rows">;

export async function insertFaq(
  db: Db,
  input: {
    question: string;
    answer: string;
    keywords: string[];
    enabled: boolean;
    sort_order: number;
    at: string;
    actor: Actor;
    audit: Audit;
  },
) {
  const [row] = await queryRows<FaqRow>(
    db,
    sql`with w as (
        insert into ${f} (${col(f.question)}, ${col(f.answer)}, ${col(f.keywords)},
          ${col(f.enabled)}, ${col(f.sortOrder)}, ${col(f.createdAt)}, ${col(f.updatedAt)})
        values (${input.question}, ${input.answer}, ${JSON.stringify(input.keywords)}::jsonb,
          ${input.enabled}, ${input.sort_order}, ${input.at}::timestamptz, ${input.at}::timestamptz)
        returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select ${writtenFaqColumns} from w`,
  );
  return row!;
}

export async function updateFaqRow(
  db: Db,
  input: {
    id: string;
    patch: {
      question?: string | undefined;
      answer?: string | undefined;
      keywords?: string[] | undefined;
      enabled?: boolean | undefined;
      sort_order?: number | undefined;
    };
    at: string;
    actor: Actor;
    audit: Audit;
  },
) {
  const { patch } = input;
  const sets: SQL[] = [];
  if (patch.question !== undefined) sets.push(sql`${col(f.question)} = ${patch.question}`);
  if (patch.answer !== undefined) sets.push(sql`${col(f.answer)} = ${patch.answer}`);
  if (patch.enabled !== undefined) sets.push(sql`${col(f.enabled)} = ${patch.enabled}`);
  if (patch.sort_order !== undefined) sets.push(sql`${col(f.sortOrder)} = ${patch.sort_order}`);
  if (patch.keywords) {
    sets.push(sql`${col(f.keywords)} = ${JSON.stringify(patch.keywords)}::jsonb`);
  }
  sets.push(sql`${col(f.updatedAt)} = ${input.at}::timestamptz`);
  const old = lockBefore(f, input.id);
  const [row] = await queryRows<FaqRow>(
    db,
    sql`with w as (
        update ${f} set ${sql.join(sets, sql`, `)} from ${old.from} where ${old.where}
        returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select ${writtenFaqColumns} from w`,
  );
  return row;
}

/** Whether the FAQ existed. */
export async function deleteFaqRow(
  db: Db,
  input: { id: string; actor: Actor; audit: Audit },
): Promise<boolean> {
  const rows = await queryRows<Pick<FaqRow, "id">>(
    db,
    sql`with w as (delete from ${f} where ${f.id} = ${input.id} returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select w.${col(f.id)} from w`,
  );
  return rows.length > 0;
}

/**
 * pg_trgm `similarity(lower(question), lower(message))` at or above this is a match even
 * without a keyword. 0.55 means "the same question, worded nearly the same" (a changed word or
 * two, punctuation, case); looser paraphrases are left to the LLM, because a wrong instant
 * answer is worse than a paid right one. Admins widen coverage with keywords, which also cover
 * CJK text (pg_trgm builds trigrams from alphanumerics only, so CJK questions score 0).
 */
const FAQ_SIMILARITY_THRESHOLD = 0.55;

/** A row of faqMatchSql. */
export type FaqMatch = Pick<DbRow<typeof faqs>, "id" | "question" | "answer"> & {
  keyword_hits: number;
  score: number;
};

/**
 * The best enabled FAQ for a message, as one select yielding 0 or 1 row (id, question, answer,
 * keyword_hits, score), to be used alone or as a subquery (the assistant's turn embeds it). A
 * FAQ matches when one of its keywords (trimmed, case-insensitive, 2 characters or more;
 * shorter ones would match almost anything) occurs in the message, or when its question's
 * trigram similarity to the message reaches FAQ_SIMILARITY_THRESHOLD. Best: most keyword hits,
 * then highest similarity, then the admin's sort_order. The faqs table is small and
 * admin-maintained: a scan of the enabled rows.
 */
export function faqMatchSql(message: string): SQL {
  const q = alias(faqs, "f");
  return sql`select m.id, m.question, m.answer, m.keyword_hits, m.score
    from (
      select ${q.id}, ${q.question}, ${q.answer}, ${q.sortOrder},
        (select count(*) from jsonb_array_elements_text(${q.keywords}) k(word)
          where char_length(btrim(k.word)) >= 2
            and strpos(lower(${message}::text), lower(btrim(k.word))) > 0)::int as keyword_hits,
        similarity(lower(${q.question}), lower(${message}::text))::float8 as score
      from ${faqs} ${q}
      where ${q.enabled}) m
    where m.keyword_hits > 0 or m.score >= ${FAQ_SIMILARITY_THRESHOLD}
    order by m.keyword_hits desc, m.score desc, m.sort_order, m.id
    limit 1`;
}

// ---------------------------------------------------------------- AI routing

/**
 * Stores `ai.routing` (system-config's fragment) with its audit row in one statement: the
 * audit's before side is the value this write replaced.
 */
export async function storeRouting(
  db: Db,
  input: { routing: unknown; at: string; actor: Actor; fields: readonly string[] },
) {
  await queryRows(
    db,
    sql`with ${upsertConfigCte({
      key: "ai.routing",
      value: input.routing,
      at: input.at,
      by: input.actor.id,
    })},
      ${auditCte(input.actor, {
        action: "ai_routing.update",
        target: "system_config",
        // The statement's snapshot: the value this write replaced.
        rows: sql`(select ${upsertedConfig.col("key")} as id, ${upsertedConfig.col("value")} as audit_after,
          ${previousConfigValueSql("ai.routing")} as audit_before from ${upsertedConfig})`,
        kind: "custom",
        before: sql`r.audit_before`,
        after: sql`r.audit_after`,
        fields: input.fields,
      })}
      select key from w`,
  );
}

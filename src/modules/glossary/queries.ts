import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import { glossaryTerms, mtGlossaries } from "../../db/schema";
import { callerOrgSql, callerSeesAllSql, inCallerOrg } from "../../db/scope";
import { col, columnList, type DbRow } from "../../db/sql";
import { escapeLike } from "../../lib/sql-text";

const g = glossaryTerms;

// The glossary is the organisation's, kept like the product catalogue (docs/teams.md): every
// member reads it and every translation of a member uses it; a manager, an admin or the owner
// creates, edits, deletes and imports terms, so the words the whole company's translations use
// are not changed by whoever happens to edit them (ADR 0109).

/** The terms the caller sees: all of their organisation's. */
const readable = (table: { orgId: AnyPgColumn }, userId: string) => inCallerOrg(table, userId);

/** The terms the caller may change: their organisation's, when manager or above. */
const writable = (table: { orgId: AnyPgColumn }, userId: string) =>
  sql`(${inCallerOrg(table, userId)} and ${callerSeesAllSql(userId)})`;

const COLUMNS = columnList([
  g.id,
  g.sourceLang,
  g.targetLang,
  g.sourceTerm,
  g.targetTerm,
  g.note,
  g.userId,
  g.createdAt,
  g.updatedAt,
]);

export type TermRow = Pick<
  DbRow<typeof glossaryTerms>,
  | "id"
  | "source_lang"
  | "target_lang"
  | "source_term"
  | "target_term"
  | "note"
  | "user_id"
  | "created_at"
  | "updated_at"
>;

/** A page of the organisation's terms, newest first; `q` matches either term. */
export function listTerms(
  db: Db,
  params: {
    userId: string;
    sourceLang?: string | undefined;
    targetLang?: string | undefined;
    q?: string | undefined;
    page: number;
    size: number;
  },
) {
  const filters: SQL[] = [readable(g, params.userId)];
  if (params.sourceLang) filters.push(sql`${g.sourceLang} = ${params.sourceLang}`);
  if (params.targetLang) filters.push(sql`${g.targetLang} = ${params.targetLang}`);
  if (params.q) {
    const pattern = `%${escapeLike(params.q.toLowerCase())}%`;
    filters.push(
      sql`(lower(${g.sourceTerm}) like ${pattern} or lower(${g.targetTerm}) like ${pattern})`,
    );
  }
  return selectPage<TermRow>(db, {
    columns: COLUMNS,
    from: sql`${g}`,
    where: sql.join(filters, sql` and `),
    order: sql`${g.createdAt} desc, ${g.id} desc`,
    page: params.page,
    size: params.size,
  });
}

export async function getTerm(
  db: Db,
  params: { userId: string; id: string },
): Promise<TermRow | undefined> {
  const [row] = await queryRows<TermRow>(
    db,
    sql`select ${COLUMNS} from ${g} where ${g.id} = ${params.id} and ${readable(g, params.userId)}`,
  );
  return row;
}

export interface TermValues {
  source_lang: string;
  target_lang: string;
  source_term: string;
  target_term: string;
  note: string | null;
}

/**
 * Adds a term to the caller's organisation; undefined when the caller may not keep the
 * glossary. A term already there (same pair, same source term whatever its case) is a unique
 * violation (23505) the caller maps.
 */
export async function insertTerm(
  db: Db,
  params: { userId: string; values: TermValues },
): Promise<TermRow | undefined> {
  const v = params.values;
  const [row] = await queryRows<TermRow>(
    db,
    sql`insert into ${g} (${col(g.orgId)}, ${col(g.userId)}, ${col(g.sourceLang)}, ${col(g.targetLang)},
          ${col(g.sourceTerm)}, ${col(g.targetTerm)}, ${col(g.note)})
        select ${callerOrgSql(params.userId)}, ${params.userId}::uuid, ${v.source_lang}, ${v.target_lang},
          ${v.source_term}, ${v.target_term}, ${v.note}
        where ${callerSeesAllSql(params.userId)}
        returning ${COLUMNS}`,
  );
  return row;
}

const PATCHABLE = {
  source_lang: g.sourceLang,
  target_lang: g.targetLang,
  source_term: g.sourceTerm,
  target_term: g.targetTerm,
  note: g.note,
} as const;

/** Sets the given fields; undefined when the caller may not change the term (or none). */
export async function updateTerm(
  db: Db,
  params: { userId: string; id: string; patch: Partial<Record<keyof typeof PATCHABLE, unknown>> },
): Promise<TermRow | undefined> {
  const sets = (Object.keys(PATCHABLE) as (keyof typeof PATCHABLE)[])
    .filter((k) => params.patch[k] !== undefined)
    .map((k) => sql`${col(PATCHABLE[k])} = ${params.patch[k]}`);
  const [row] = await queryRows<TermRow>(
    db,
    sql`update ${g} set ${sql.join([...sets, sql`${col(g.updatedAt)} = now()`], sql`, `)}
        where ${g.id} = ${params.id} and ${writable(g, params.userId)} returning ${COLUMNS}`,
  );
  return row;
}

/** Whether a row was deleted. */
export async function deleteTerm(db: Db, params: { userId: string; id: string }) {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from ${g} where ${g.id} = ${params.id} and ${writable(g, params.userId)}
        returning ${g.id}`,
  );
  return rows.length > 0;
}

/**
 * One statement: inserts the rows, and a row whose pair and source term (whatever its case)
 * is there already replaces that term's target and note. `allowed` false: the caller (a
 * member) may not keep the glossary and nothing was written.
 */
export async function upsertTerms(
  db: Db,
  params: { userId: string; now: string; rows: TermValues[] },
): Promise<{ allowed: boolean; created: number; updated: number }> {
  const payload = JSON.stringify(params.rows);
  const { userId, now } = params;
  const [result] = await queryRows<{ allowed: boolean; created: number; updated: number }>(
    db,
    sql`with input as (
        select * from jsonb_to_recordset(${payload}::jsonb) as x(
          source_lang text, target_lang text, source_term text, target_term text, note text)),
      up as (
        insert into ${g} (${col(g.orgId)}, ${col(g.userId)}, ${col(g.sourceLang)}, ${col(g.targetLang)},
          ${col(g.sourceTerm)}, ${col(g.targetTerm)}, ${col(g.note)}, ${col(g.createdAt)}, ${col(g.updatedAt)})
        select ${callerOrgSql(userId)}, ${userId}::uuid, i.source_lang, i.target_lang, i.source_term,
          i.target_term, i.note, ${now}::timestamptz, ${now}::timestamptz
        from input i where ${callerSeesAllSql(userId)}
        on conflict (org_id, source_lang, target_lang, lower(source_term)) do update set
          target_term = excluded.target_term,
          note = coalesce(excluded.note, ${g}.note),
          updated_at = excluded.updated_at
        returning (xmax = 0) as inserted)
      select ${callerSeesAllSql(userId)} as allowed,
        (select count(*) from up where inserted)::int as created,
        (select count(*) from up where not inserted)::int as updated`,
  );
  return result ?? { allowed: false, created: 0, updated: 0 };
}

/** A term as a translation uses it. */
export interface PairTerm {
  source_lang: string;
  source_term: string;
  target_term: string;
}

/** How many terms of one target language a translation reads at most. */
const TERMS_READ_MAX = 5000;

/**
 * The caller's organisation and its terms into `targetLang` (from `sourceLang` when given),
 * oldest first so a provider glossary built from them hashes the same until they change.
 * `orgId` null: the caller has no organisation (no terms).
 */
export async function termsFor(
  db: Db,
  params: { userId: string; targetLang: string; sourceLang?: string | undefined },
): Promise<{ orgId: string | null; terms: PairTerm[] }> {
  const rows = await queryRows<PairTerm & { org_id: string | null }>(
    db,
    sql`select o.org_id, t.source_lang, t.source_term, t.target_term
        from (select ${callerOrgSql(params.userId)} as org_id) o
        left join ${g} t on t.org_id = o.org_id and t.target_lang = ${params.targetLang}
          ${params.sourceLang ? sql`and t.source_lang = ${params.sourceLang}` : sql``}
        order by t.source_lang, lower(t.source_term), t.id
        limit ${TERMS_READ_MAX}`,
  );
  const orgId = rows[0]?.org_id ?? null;
  return {
    orgId,
    terms: rows
      .filter((r) => r.source_term !== null)
      .map(({ source_lang, source_term, target_term }) => ({
        source_lang,
        source_term,
        target_term,
      })),
  };
}

const m = mtGlossaries;

/** The provider glossary id cached for a pair with these entries (their hash), if any. */
export async function cachedMtGlossary(
  db: Db,
  key: { providerId: string; orgId: string; sourceLang: string; targetLang: string },
): Promise<{ glossary_id: string; content_hash: string } | undefined> {
  const [row] = await queryRows<{ glossary_id: string; content_hash: string }>(
    db,
    sql`select ${m.glossaryId}, ${m.contentHash} from ${m}
        where ${m.providerId} = ${key.providerId} and ${m.orgId} = ${key.orgId}
          and ${m.sourceLang} = ${key.sourceLang} and ${m.targetLang} = ${key.targetLang}`,
  );
  return row;
}

/** Records the provider glossary now used for the pair; the one it replaced, if any. */
export async function saveMtGlossary(
  db: Db,
  key: { providerId: string; orgId: string; sourceLang: string; targetLang: string },
  value: { glossaryId: string; contentHash: string },
): Promise<string | undefined> {
  const [row] = await queryRows<{ replaced: string | null }>(
    db,
    sql`with old as (
          select ${m.glossaryId} as glossary_id from ${m}
          where ${m.providerId} = ${key.providerId} and ${m.orgId} = ${key.orgId}
            and ${m.sourceLang} = ${key.sourceLang} and ${m.targetLang} = ${key.targetLang}),
        up as (
          insert into ${m} (${col(m.providerId)}, ${col(m.orgId)}, ${col(m.sourceLang)}, ${col(m.targetLang)},
            ${col(m.contentHash)}, ${col(m.glossaryId)})
          values (${key.providerId}, ${key.orgId}, ${key.sourceLang}, ${key.targetLang},
            ${value.contentHash}, ${value.glossaryId})
          on conflict (provider_id, org_id, source_lang, target_lang) do update set
            content_hash = excluded.content_hash, glossary_id = excluded.glossary_id,
            created_at = now()
          returning 1)
        select (select glossary_id from old) as replaced, (select count(*) from up) as n`,
  );
  const replaced = row?.replaced ?? undefined;
  return replaced && replaced !== value.glossaryId ? replaced : undefined;
}

/** Forgets the cached provider glossary of the pair when it is still this one. */
export async function forgetMtGlossary(
  db: Db,
  key: {
    providerId: string;
    orgId: string;
    sourceLang: string;
    targetLang: string;
    glossaryId: string;
  },
): Promise<void> {
  await queryRows(
    db,
    sql`delete from ${m} where ${m.providerId} = ${key.providerId} and ${m.orgId} = ${key.orgId}
          and ${m.sourceLang} = ${key.sourceLang} and ${m.targetLang} = ${key.targetLang}
          and ${m.glossaryId} = ${key.glossaryId}`,
  );
}

/** Whether the caller may keep the glossary (manager or above of their organisation). */
export async function mayKeepGlossary(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ allowed: boolean }>(
    db,
    sql`select ${callerSeesAllSql(userId)} as allowed`,
  );
  return row?.allowed === true;
}

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: the glossary of the account's personal organisation (`orgIds`, only ever the
 * organisation it is the sole member of) with the provider glossary ids cached for it (the
 * organisation row stays, so nothing cascades; a DeepL glossary is left to its account's own
 * limits).
 */
export function accountDeletionCtes(p: { orgIds: SQL }): SQL {
  return sql.join(
    [
      sql`glossary_terms_gone as (delete from ${glossaryTerms} where ${glossaryTerms.orgId} in ${p.orgIds} returning 1)`,
      sql`glossary_mt_gone as (delete from ${mtGlossaries} where ${mtGlossaries.orgId} in ${p.orgIds} returning 1)`,
    ],
    sql`, `,
  );
}

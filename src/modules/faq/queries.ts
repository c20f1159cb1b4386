import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import { type OrgFaqStatus, orgFaqs, translations } from "../../db/schema";
import { callerOrgSql, callerRoleSql } from "../../db/scope";
import { col, type DbRow } from "../../db/sql";

/** The SQL of org_faqs (owned by faq): the organisation's own FAQ. */

const f = orgFaqs;

export type OrgFaqRow = Pick<
  DbRow<typeof orgFaqs>,
  | "id"
  | "question"
  | "answer"
  | "language"
  | "status"
  | "hit_count"
  | "last_hit_at"
  | "source_reply_id"
  | "created_by"
  | "created_at"
  | "updated_at"
>;

const columns = sql`${f.id}, ${f.question}, ${f.answer}, ${f.language}, ${f.status},
  ${f.hitCount}, ${f.lastHitAt}, ${f.sourceReplyId}, ${f.createdBy}, ${f.createdAt}, ${f.updatedAt}`;
const returned = sql`${col(f.id)}, ${col(f.question)}, ${col(f.answer)}, ${col(f.language)},
  ${col(f.status)}, ${col(f.hitCount)}, ${col(f.lastHitAt)}, ${col(f.sourceReplyId)},
  ${col(f.createdBy)}, ${col(f.createdAt)}, ${col(f.updatedAt)}`;

/** Whether the caller may write the organisation's FAQ: owner or admin. */
const callerWritesSql = (userId: string) =>
  sql`coalesce(${callerRoleSql(userId)} in ('owner', 'admin'), false)`;

export async function callerMayWrite(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ ok: boolean }>(db, sql`select ${callerWritesSql(userId)} as ok`);
  return row?.ok === true;
}

/** The FAQ of the caller's organisation, newest first, optionally of one status. */
export function listOrgFaqRows(
  db: Db,
  input: { userId: string; page: number; size: number; status?: OrgFaqStatus | undefined },
) {
  const filters: SQL[] = [sql`${f.orgId} = ${callerOrgSql(input.userId)}`];
  if (input.status) filters.push(sql`${f.status} = ${input.status}`);
  return selectPage<OrgFaqRow>(db, {
    columns,
    from: sql`${f}`,
    where: sql.join(filters, sql` and `),
    order: sql`${f.createdAt} desc, ${f.id} desc`,
    page: input.page,
    size: input.size,
  });
}

export async function insertOrgFaq(
  db: Db,
  input: {
    id: string;
    userId: string;
    question: string;
    answer: string;
    language: string;
    status: OrgFaqStatus;
    at: string;
  },
) {
  const [row] = await queryRows<OrgFaqRow>(
    db,
    sql`insert into ${f} (${col(f.id)}, ${col(f.orgId)}, ${col(f.createdBy)}, ${col(f.question)},
        ${col(f.answer)}, ${col(f.language)}, ${col(f.status)}, ${col(f.createdAt)}, ${col(f.updatedAt)})
      select ${input.id}::uuid, ${callerOrgSql(input.userId)}, ${input.userId}::uuid, ${input.question},
        ${input.answer}, ${input.language}, ${input.status}, ${input.at}::timestamptz, ${input.at}::timestamptz
      where ${callerOrgSql(input.userId)} is not null
      returning ${returned}`,
  );
  return row;
}

export async function updateOrgFaq(
  db: Db,
  input: {
    userId: string;
    id: string;
    patch: { question?: string; answer?: string; language?: string; status?: OrgFaqStatus };
    at: string;
  },
) {
  const { patch } = input;
  const sets: SQL[] = [];
  if (patch.question !== undefined) sets.push(sql`${col(f.question)} = ${patch.question}`);
  if (patch.answer !== undefined) sets.push(sql`${col(f.answer)} = ${patch.answer}`);
  if (patch.language !== undefined) sets.push(sql`${col(f.language)} = ${patch.language}`);
  if (patch.status !== undefined) sets.push(sql`${col(f.status)} = ${patch.status}`);
  sets.push(sql`${col(f.updatedAt)} = ${input.at}::timestamptz`);
  const [row] = await queryRows<OrgFaqRow>(
    db,
    sql`update ${f} set ${sql.join(sets, sql`, `)}
      where ${f.id} = ${input.id}::uuid and ${f.orgId} = ${callerOrgSql(input.userId)}
      returning ${returned}`,
  );
  return row;
}

/** Whether the entry was the caller's organisation's (and is now gone). */
export async function deleteOrgFaq(db: Db, input: { userId: string; id: string }) {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from ${f}
      where ${f.id} = ${input.id}::uuid and ${f.orgId} = ${callerOrgSql(input.userId)}
      returning ${col(f.id)}`,
  );
  return rows.length > 0;
}

/**
 * An accepted reply suggestion as an FAQ candidate, in one statement: the reply is looked up by
 * its id among the caller's own translations (jsonb containment on `replies`, then the item by
 * a jsonb path), and the candidate (question: the buyer's message; answer: the reply in the
 * buyer's language) is inserted unless this reply already made one in the organisation.
 * `found`: whether the reply is the caller's; `row`: the candidate, new or the earlier one.
 */
export async function acceptReply(
  db: Db,
  input: { userId: string; replyId: string; id: string; at: string },
) {
  const t = alias(translations, "t");
  const match = JSON.stringify([{ id: input.replyId }]);
  const [row] = await queryRows<{
    found: boolean;
    created: boolean;
    row: OrgFaqRow | string | null;
  }>(
    db,
    sql`with reply as (
        select ${t.id} as translation_id, ${t.sourceText} as question,
          coalesce(lower(${t.sourceLang}), 'und') as language,
          jsonb_path_query_first(${t.replies}, '$[*] ? (@.id == $id)',
            jsonb_build_object('id', ${input.replyId}::text)) ->> 'text' as answer
        from ${translations} ${t}
        where ${t.userId} = ${input.userId}::uuid and ${t.replies} @> ${match}::jsonb
        order by ${t.createdAt} desc limit 1),
      inserted as (
        insert into ${f} (${col(f.id)}, ${col(f.orgId)}, ${col(f.createdBy)}, ${col(f.question)},
          ${col(f.answer)}, ${col(f.language)}, ${col(f.status)}, ${col(f.sourceReplyId)},
          ${col(f.sourceTranslationId)}, ${col(f.createdAt)}, ${col(f.updatedAt)})
        select ${input.id}::uuid, ${callerOrgSql(input.userId)}, ${input.userId}::uuid, r.question,
          r.answer, r.language, 'candidate', ${input.replyId}, r.translation_id,
          ${input.at}::timestamptz, ${input.at}::timestamptz
        from reply r
        where r.answer is not null and ${callerOrgSql(input.userId)} is not null
        on conflict (${col(f.orgId)}, ${col(f.sourceReplyId)})
          where ${col(f.sourceReplyId)} is not null do nothing
        returning ${returned})
      select exists (select 1 from reply where answer is not null) as found,
        exists (select 1 from inserted) as created,
        coalesce((select to_jsonb(i) from inserted i),
          (select to_jsonb(e) from (select ${columns} from ${f}
            where ${f.orgId} = ${callerOrgSql(input.userId)}
              and ${f.sourceReplyId} = ${input.replyId}) e)) as row`,
  );
  return row!;
}

/**
 * The best active entry of the caller's organisation for `text` (0 or 1 row), optionally only
 * among entries in `language`: trigram similarity of the question at or above `threshold`. As
 * a scalar subquery (jsonb) for the assistant's turn context, or alone.
 */
export function orgFaqMatchSql(
  userId: string,
  text: string,
  threshold: number,
  language?: string,
): SQL {
  const q = alias(orgFaqs, "of");
  return sql`(select to_jsonb(best) from (
      select ${q.id} as id, ${q.answer} as answer, ${q.language} as language,
        similarity(lower(${q.question}), lower(${text}::text))::float8 as score
      from ${orgFaqs} ${q}
      where ${q.orgId} = ${callerOrgSql(userId)} and ${q.status} = 'active'
        ${language ? sql`and ${q.language} = ${language}` : sql``}
        and similarity(lower(${q.question}), lower(${text}::text)) >= ${threshold}
      order by score desc, ${q.hitCount} desc, ${q.id}
      limit 1) best)`;
}

/** The languages of the active entries of the caller's organisation (jsonb array). */
export function orgFaqLanguagesSql(userId: string): SQL {
  const q = alias(orgFaqs, "ol");
  return sql`coalesce((select jsonb_agg(distinct ${q.language}) from ${orgFaqs} ${q}
      where ${q.orgId} = ${callerOrgSql(userId)} and ${q.status} = 'active'), '[]'::jsonb)`;
}

export async function orgFaqMatch(
  db: Db,
  input: { userId: string; text: string; threshold: number; language?: string },
) {
  const [row] = await queryRows<{ best: OrgFaqMatch | string | null }>(
    db,
    sql`select ${orgFaqMatchSql(input.userId, input.text, input.threshold, input.language)} as best`,
  );
  return row?.best ?? null;
}

export interface OrgFaqMatch {
  id: string;
  answer: string;
  language: string;
  score: number;
}

/** Counts an answer given from an entry. */
export async function countOrgFaqHit(db: Db, input: { id: string; at: string }) {
  await queryRows(
    db,
    sql`update ${f} set ${col(f.hitCount)} = ${f.hitCount} + 1,
        ${col(f.lastHitAt)} = ${input.at}::timestamptz
      where ${f.id} = ${input.id}::uuid`,
  );
}

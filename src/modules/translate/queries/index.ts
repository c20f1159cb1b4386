import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import { translations } from "../../../db/schema";
import { col, columnList, type DbRow } from "../../../db/sql";

/** The SQL of translations (owned by translate): the caller's translation history. */

const t = translations;

export type TranslationRow = Pick<
  DbRow<typeof translations>,
  | "id"
  | "source_text"
  | "translated_text"
  | "source_lang"
  | "target_lang"
  | "replies"
  | "provider"
  | "tier"
  | "chars"
  | "created_at"
>;

const translationColumns = columnList([
  t.id,
  t.sourceText,
  t.translatedText,
  t.sourceLang,
  t.targetLang,
  t.replies,
  t.provider,
  t.tier,
  t.chars,
  t.createdAt,
]);

export async function insertTranslation(
  db: Db,
  input: Omit<TranslationRow, "id" | "created_at"> & { userId: string; at: string },
) {
  const [row] = await queryRows<TranslationRow>(
    db,
    sql`insert into ${t} (${col(t.userId)}, ${col(t.sourceText)}, ${col(t.sourceLang)},
          ${col(t.targetLang)}, ${col(t.translatedText)}, ${col(t.replies)}, ${col(t.provider)},
          ${col(t.tier)}, ${col(t.chars)}, ${col(t.createdAt)})
        values (${input.userId}, ${input.source_text}, ${input.source_lang}, ${input.target_lang},
          ${input.translated_text}, ${JSON.stringify(input.replies)}::jsonb,
          ${input.provider}, ${input.tier}, ${input.chars}, ${input.at}::timestamptz)
        returning ${translationColumns}`,
  );
  return row!;
}

/** The user's translations, newest first. */
export function listTranslationRows(db: Db, input: { userId: string; page: number; size: number }) {
  return selectPage<TranslationRow>(db, {
    columns: translationColumns,
    from: sql`${t}`,
    where: sql`${t.userId} = ${input.userId}`,
    order: sql`${t.createdAt} desc, ${t.id} desc`,
    page: input.page,
    size: input.size,
  });
}

export async function getTranslationRow(db: Db, input: { userId: string; id: string }) {
  const [row] = await queryRows<TranslationRow>(
    db,
    sql`select ${translationColumns} from ${t} where ${t.id} = ${input.id} and ${t.userId} = ${input.userId}`,
  );
  return row;
}

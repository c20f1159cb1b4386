import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { products } from "../../../db/schema";
import { inCallerOrg } from "../../../db/scope";

const p = products;

/** A product's figures an AI draft may quote (issue #24, ai/claims.ts). */
export interface ProductFactsRow {
  id: string;
  name: string;
  sku: string | null;
  unit: string;
  price: number | null;
  currency: string;
  moq: number | null;
  lead_time_days: number | null;
  specs: Record<string, string> | null;
  aliases: string[];
}

/** How close a name must come to some stretch of the text (pg_trgm word_similarity). */
export const FACTS_FUZZY_THRESHOLD = 0.6;

/**
 * The caller organisation's products the text mentions, best first, at most `limit`, in one
 * statement: its SKU or one of its aliases as a whole word (ASCII punctuation and spaces
 * separate words; a term with other scripts in it, e.g. Chinese, is found anywhere), its
 * name anywhere, or its name close to a stretch of the text (pg_trgm word_similarity).
 */
export function productsMentioned(
  db: Db,
  params: { userId: string; text: string; limit: number },
): Promise<ProductFactsRow[]> {
  // Words: lower-cased, ASCII punctuation and spaces as one space, padded with spaces.
  const words = (value: unknown) =>
    sql`(' ' || regexp_replace(lower(${value}), '[[:space:][:punct:]]+', ' ', 'g') || ' ')`;
  const mentions = (term: unknown) => sql`(case
      when ${term} ~ '[^\\x01-\\x7f]' then position(lower(${term}) in t.lower_text) > 0
      else length(btrim(${words(term)})) > 0
        and position(${words(term)} in t.words) > 0 end)`;
  return queryRows<ProductFactsRow>(
    db,
    sql`with t as (
          select lower(${params.text}::text) as lower_text, ${words(sql`${params.text}::text`)} as words),
        scored as (
          select ${p.id}, ${p.name}, ${p.sku}, ${p.unit}, ${p.price}, ${p.currency}, ${p.moq},
            ${p.leadTimeDays} as lead_time_days, ${p.specs}, ${p.aliases}, ${p.createdAt} as created_at,
            case
              when ${p.sku} is not null and ${mentions(p.sku)} then 3
              when exists (select 1 from unnest(${p.aliases}) a(term)
                           where length(a.term) > 1 and ${mentions(sql`a.term`)}) then 2
              when position(lower(${p.name}) in t.lower_text) > 0 then 2
              else word_similarity(lower(${p.name}), t.lower_text)::float8 end as score
          from ${p}, t
          where ${inCallerOrg(p, params.userId)})
        select id, name, sku, unit, price, currency, moq, lead_time_days, specs, aliases
        from scored where score >= ${FACTS_FUZZY_THRESHOLD}
        order by score desc, created_at, id
        limit ${params.limit}`,
  );
}

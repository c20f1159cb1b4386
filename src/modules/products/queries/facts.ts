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
const FACTS_FUZZY_THRESHOLD = 0.6;

/** Names compared closely with the text at most: those sharing the most words with it. */
const FUZZY_CANDIDATES = 50;

/** ASCII punctuation and spaces, which separate words (other scripts run words together). */
const SEPARATORS = /[\s!-/:-@[-`{-~]+/g;

/** The text's words, as the statement compares them: lower-cased, space-separated, padded. */
function wordsOf(text: string): string {
  return ` ${text.toLowerCase().replace(SEPARATORS, " ").trim()} `;
}

/**
 * The caller organisation's products the text mentions, best first, at most `limit`, in one
 * statement: its SKU or one of its aliases as a whole word (ASCII punctuation and spaces
 * separate words; a term with other scripts in it, e.g. Chinese, is found anywhere), its name
 * anywhere, or, when the name shares a word with the text, its name close to a stretch of the
 * text (pg_trgm word_similarity; only for the 50 names sharing the most words, so a large
 * catalogue of alike names costs 50 comparisons). The text is lower-cased and split once, here, not per row.
 */
export function productsMentioned(
  db: Db,
  params: { userId: string; text: string; limit: number },
): Promise<ProductFactsRow[]> {
  const lower = params.text.toLowerCase();
  const words = wordsOf(params.text);
  const unique = [
    ...new Set(
      words
        .trim()
        .split(" ")
        .filter((w) => w.length >= 3),
    ),
  ];
  // A term's words, as wordsOf() makes them (the same ASCII separators).
  const termWords = (term: unknown) =>
    sql`(' ' || btrim(regexp_replace(lower(${term}), '[[:space:]!-/:-@[-\`{-~]+', ' ', 'g')) || ' ')`;
  const mentions = (term: unknown) => sql`(case
      when ${term} ~ '[^\\x01-\\x7f]' then position(lower(${term}) in ${lower}::text) > 0
      else length(btrim(${termWords(term)})) > 0
        and position(${termWords(term)} in ${words}::text) > 0 end)`;
  // The text's words: a name must share one before it is compared closely.
  const shared = sql`array(select jsonb_array_elements_text(${JSON.stringify(unique)}::jsonb))`;
  // A candidate's name words of 3 letters or more (counted where the text has them).
  const nameWords = sql`unnest(string_to_array(btrim(${termWords(sql`base.name`)}), ' ')) n(w) where length(w) >= 3`;
  return queryRows<ProductFactsRow>(
    db,
    sql`with base as (
          select ${p.id}, ${p.name}, ${p.sku}, ${p.unit}, ${p.price}, ${p.currency}, ${p.moq},
            ${p.leadTimeDays} as lead_time_days, ${p.specs}, ${p.aliases}, ${p.createdAt} as created_at,
            case
              when ${p.sku} is not null and ${mentions(p.sku)} then 3
              when exists (select 1 from unnest(${p.aliases}) a(term)
                           where length(a.term) > 1 and ${mentions(sql`a.term`)}) then 2
              when position(lower(${p.name}) in ${lower}::text) > 0 then 2
              else 0 end::float8 as exact,
            string_to_array(btrim(${termWords(p.name)}), ' ') && ${shared} as shares_word
          from ${p}
          where ${inCallerOrg(p, params.userId)}),
        candidates as (
          select id, name from base
          where exact = 0 and shares_word
          order by (select count(*) from ${nameWords} and w = any(${shared})) desc, created_at, id
          limit ${FUZZY_CANDIDATES}),
        fuzzy as (
          select id, word_similarity(lower(name), ${lower}::text)::float8 as score from candidates),
        scored as (
          select base.*, greatest(base.exact, coalesce(fuzzy.score, 0)) as score
          from base left join fuzzy using (id))
        select id, name, sku, unit, price, currency, moq, lead_time_days, specs, aliases
        from scored where score >= ${FACTS_FUZZY_THRESHOLD}
        order by score desc, created_at, id
        limit ${params.limit}`,
  );
}

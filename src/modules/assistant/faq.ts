import { type SQL, sql } from "drizzle-orm";

/**
 * pg_trgm `similarity(lower(question), lower(message))` at or above this is a match even
 * without a keyword. 0.55 means "the same question, worded nearly the same" (a changed word or
 * two, punctuation, case); looser paraphrases are left to the LLM, because a wrong instant
 * answer is worse than a paid right one. Admins widen coverage with keywords, which also cover
 * CJK text (pg_trgm builds trigrams from alphanumerics only, so CJK questions score 0).
 */
const FAQ_SIMILARITY_THRESHOLD = 0.55;

export interface FaqMatch {
  id: string;
  question: string;
  answer: string;
  keyword_hits: number;
  score: number;
}

/**
 * The best enabled FAQ for a message, as one select yielding 0 or 1 row (id, question, answer,
 * keyword_hits, score), to be used alone or as a subquery. A FAQ matches when one of its
 * keywords (trimmed, case-insensitive, 2 characters or more; shorter ones would match almost
 * anything) occurs in the message, or when its question's trigram similarity to the message
 * reaches FAQ_SIMILARITY_THRESHOLD. Best: most keyword hits, then highest similarity, then the
 * admin's sort_order. The faqs table is small and admin-maintained: a scan of the enabled rows.
 */
export function faqMatchSql(message: string): SQL {
  return sql`select m.id, m.question, m.answer, m.keyword_hits, m.score
    from (
      select f.id, f.question, f.answer, f.sort_order,
        (select count(*) from jsonb_array_elements_text(f.keywords) k(word)
          where char_length(btrim(k.word)) >= 2
            and strpos(lower(${message}::text), lower(btrim(k.word))) > 0)::int as keyword_hits,
        similarity(lower(f.question), lower(${message}::text))::float8 as score
      from faqs f
      where f.enabled) m
    where m.keyword_hits > 0 or m.score >= ${FAQ_SIMILARITY_THRESHOLD}
    order by m.keyword_hits desc, m.score desc, m.sort_order, m.id
    limit 1`;
}

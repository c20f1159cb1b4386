import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { aiProviders } from "./ai";
import { createdAt, id, updatedAt } from "./columns";
import { orgs } from "./orgs";
import { users } from "./users";

/**
 * The seller's glossary (issue #24, ADR 0109): their own terms (product names, brand) and how
 * each is said in a buyer's language. The organisation's, like the product catalogue: every
 * member reads it and translations use it; a manager, an admin or the owner keeps it.
 * Languages are primary language subtags (`en`, `zh`, `pt`): a pair is by language, not region.
 */
export const glossaryTerms = pgTable(
  "glossary_terms",
  {
    id: id(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** Who created the term; kept when they leave (null). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    sourceLang: text("source_lang").notNull(),
    targetLang: text("target_lang").notNull(),
    sourceTerm: text("source_term").notNull(),
    targetTerm: text("target_term").notNull(),
    note: text("note"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One target per source term and language pair, whatever its case.
    uniqueIndex("glossary_terms_org_pair_term_key").on(
      t.orgId,
      t.sourceLang,
      t.targetLang,
      sql`lower(${t.sourceTerm})`,
    ),
    // The list: an organisation's terms, newest first.
    index("glossary_terms_org_created_idx").on(t.orgId, t.createdAt),
    check("glossary_terms_langs_differ", sql`${t.sourceLang} <> ${t.targetLang}`),
  ],
);

/**
 * The provider-side glossary last created for an organisation's language pair on a machine
 * translation provider (DeepL's glossary API): reused while the pair's entries hash the same,
 * replaced (and the old one deleted on the provider) when they change.
 */
export const mtGlossaries = pgTable(
  "mt_glossaries",
  {
    providerId: uuid("provider_id")
      .notNull()
      .references(() => aiProviders.id, { onDelete: "cascade" }),
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    sourceLang: text("source_lang").notNull(),
    targetLang: text("target_lang").notNull(),
    /** SHA-256 (hex) of the entries as sent. */
    contentHash: text("content_hash").notNull(),
    /** The provider's id of the glossary. */
    glossaryId: text("glossary_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mt_glossaries_provider_org_pair_key").on(
      t.providerId,
      t.orgId,
      t.sourceLang,
      t.targetLang,
    ),
  ],
);

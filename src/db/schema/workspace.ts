import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, tstz, updatedAt } from "./columns";
import { orgs } from "./orgs";
import { users } from "./users";

export const CUSTOMER_STATUSES = [
  "new",
  "contacted",
  "negotiating",
  "quoted",
  "won",
  "lost",
  "dormant",
] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

export const customers = pgTable(
  "customers",
  {
    id: id(),
    /** The organisation the record belongs to (issue #22); the creator's when inserted. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    /** The member who holds the customer; null: in the organisation's pool. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    company: text("company"),
    contactName: text("contact_name"),
    /** Stored lower-cased. */
    email: text("email"),
    phone: text("phone"),
    whatsapp: text("whatsapp"),
    country: text("country"),
    source: text("source"),
    tags: jsonb("tags").$type<string[]>().notNull().default([]),
    status: text("status", { enum: CUSTOMER_STATUSES }).notNull().default("new"),
    notes: text("notes"),
    /** Minor units of estimated_currency. */
    estimatedValue: integer("estimated_value"),
    estimatedCurrency: text("estimated_currency").notNull().default("USD"),
    lastContactAt: tstz("last_contact_at"),
    nextFollowupAt: tstz("next_followup_at"),
    /**
     * When the holder got it from the pool or by a transfer (null: held since creation, or in
     * the pool): the pool recycle's clock starts at the later of this and the last contact.
     */
    heldSince: tstz("held_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * What `q` searches, lower-cased once on write: a trigram index (pg_trgm) serves
     * `search_text like '%term%'`, where three lower() calls per row were a filter over
     * every row the other conditions left.
     */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`lower(coalesce(company, '') || ' ' || coalesce(contact_name, '') || ' ' || coalesce(email, ''))`,
      ),
  },
  (t) => [
    // Lists filter by organisation first (docs/teams.md); a member's own and the pool's
    // customers by holder inside it.
    index("customers_user_created_idx").on(t.userId, t.createdAt),
    index("customers_org_created_idx").on(t.orgId, t.createdAt),
    index("customers_org_user_created_idx").on(t.orgId, t.userId, t.createdAt),
    index("customers_org_status_created_idx").on(t.orgId, t.status, t.createdAt),
    // A status tab's total counted index-only: a member sees their own and the pool's, so the
    // count filters on the holder, which (org_id, status, created_at) would fetch from every
    // matching row of the organisation (50 ms at 14,000 matches of 100,000; 2.5 ms with it).
    index("customers_org_status_user_idx").on(t.orgId, t.status, t.userId),
    index("customers_org_last_contact_idx").on(t.orgId, t.lastContactAt),
    index("customers_org_next_followup_idx").on(t.orgId, t.nextFollowupAt),
    // The hourly reminders (customers/queries/reminders.ts) walk their due customers in these
    // orders, a batch at a time, reading only the customers that can be due, never the table.
    index("customers_reminder_silent_idx")
      .on(sql`coalesce(${t.lastContactAt}, ${t.createdAt})`, t.id)
      .where(sql`${t.status} not in ('won', 'lost')`),
    index("customers_reminder_followup_idx")
      .on(t.nextFollowupAt, t.id)
      .where(sql`${t.nextFollowupAt} is not null and ${t.status} not in ('lost', 'dormant')`),
    // The overnight pool recycle (customers/pool/recycle.ts) walks each organisation's held
    // customers by the time their recycle clock started, a batch at a time: only held rows.
    index("customers_pool_recycle_idx")
      .on(
        t.orgId,
        sql`greatest(coalesce(${t.lastContactAt}, ${t.createdAt}), ${t.heldSince})`,
        t.id,
      )
      .where(sql`${t.userId} is not null`),
    // The same clock across organisations: the recycle's first read, the oldest held clock, says
    // in one probe when nothing can be due, without reading each organisation's range.
    index("customers_held_clock_idx")
      .on(sql`greatest(coalesce(${t.lastContactAt}, ${t.createdAt}), ${t.heldSince})`)
      .where(sql`${t.userId} is not null`),
    index("customers_org_email_idx").on(t.orgId, t.email),
    index("customers_org_company_idx").on(t.orgId, sql`lower(${t.company})`),
    index("customers_org_country_idx").on(t.orgId, sql`lower(${t.country})`),
    // One GIN over organisation, status and trigrams (btree_gin + pg_trgm): a search with or
    // without the status filter is one index scan rather than a BitmapAnd of two indexes.
    // A search reads the whole GIN pending list (rows inserted since the last vacuum): 256 kB
    // instead of 4 MB bounds that after a bulk import, for ~30% more insert time.
    index("customers_search_idx")
      .using("gin", t.orgId, t.status, t.searchText.op("gin_trgm_ops"))
      .with({ gin_pending_list_limit: 256 }),
    index("customers_tags_idx").using("gin", t.tags.op("jsonb_path_ops")),
    check("customers_estimated_value_non_negative", sql`${t.estimatedValue} >= 0`),
  ],
);

export const FOLLOWUP_CHANNELS = [
  "email",
  "phone",
  "whatsapp",
  "wechat",
  "meeting",
  "other",
] as const;

export const followupLogs = pgTable(
  "followup_logs",
  {
    id: id(),
    /** The organisation the record belongs to (issue #22); the creator's when inserted. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: FOLLOWUP_CHANNELS }).notNull().default("other"),
    note: text("note"),
    contactedAt: tstz("contacted_at").notNull(),
    /** The next follow-up this contact scheduled (cadence by status, or the seller's date). */
    nextFollowupAt: tstz("next_followup_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // A customer's history is the company's: read by customer, whoever logged it.
    index("followup_logs_customer_contacted_idx").on(t.customerId, t.contactedAt),
    index("followup_logs_user_idx").on(t.userId),
  ],
);

export const products = pgTable(
  "products",
  {
    id: id(),
    /** The organisation the record belongs to (issue #22); the creator's when inserted. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sku: text("sku"),
    description: text("description"),
    category: text("category"),
    unit: text("unit").notNull().default("pcs"),
    /** Minor units of currency. */
    price: integer("price"),
    currency: text("currency").notNull().default("USD"),
    moq: integer("moq"),
    /** Days from order to shipment the seller quotes (issue #24: checked in AI drafts). */
    leadTimeDays: integer("lead_time_days"),
    /** Other names buyers use for the product (issue #24: inquiry lines match them). */
    aliases: text("aliases").array().notNull().default(sql`'{}'::text[]`),
    hsCode: text("hs_code"),
    imageUrl: text("image_url"),
    specs: jsonb("specs").$type<Record<string, string>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The catalogue is the organisation's, shared by every member.
    index("products_org_created_idx").on(t.orgId, t.createdAt),
    index("products_org_category_idx").on(t.orgId, t.category),
    uniqueIndex("products_org_sku_key").on(t.orgId, t.sku),
    index("products_user_idx").on(t.userId),
    check("products_price_non_negative", sql`${t.price} >= 0`),
  ],
);

/** `superseded`: a later revision replaced it (POST /quotations/{id}/revisions, ADR 0106). */
export const QUOTATION_STATUSES = [
  "draft",
  "sent",
  "accepted",
  "rejected",
  "expired",
  "superseded",
] as const;
export const INCOTERMS = [
  "EXW",
  "FCA",
  "FAS",
  "FOB",
  "CFR",
  "CIF",
  "CPT",
  "CIP",
  "DAP",
  "DPU",
  "DDP",
] as const;

export const quotations = pgTable(
  "quotations",
  {
    id: id(),
    /** The organisation the record belongs to (issue #22); the creator's when inserted. */
    orgId: uuid("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id").references(() => customers.id, { onDelete: "set null" }),
    quoteNo: text("quote_no").notNull(),
    status: text("status", { enum: QUOTATION_STATUSES }).notNull().default("draft"),
    currency: text("currency").notNull(),
    incoterm: text("incoterm", { enum: INCOTERMS }),
    validUntil: date("valid_until"),
    /** Minor units; subtotal = sum of line totals; total = subtotal - discount + shipping. */
    subtotal: integer("subtotal").notNull().default(0),
    discount: integer("discount").notNull().default(0),
    shipping: integer("shipping").notNull().default(0),
    total: integer("total").notNull().default(0),
    notes: text("notes"),
    /** Rates used to price items from another currency, frozen when the quotation was priced. */
    exchangeRates:
      jsonb("exchange_rates").$type<
        { from: string; to: string; rate: string; date: string; source: string }[]
      >(),
    /** 0: the original; a revision keeps quote_no and counts up (ADR 0106). */
    revision: integer("revision").notNull().default(0),
    /** The quotation this revision replaced (now `superseded`). */
    previousId: uuid("previous_id").references((): AnyPgColumn => quotations.id, {
      onDelete: "set null",
    }),
    /** What the documents print beside the customer's own fields (docs/quotations.md). */
    buyerAddress: text("buyer_address"),
    /** The Incoterm's named place ("Ningbo" of "FOB Ningbo"). */
    namedPlace: text("named_place"),
    portOfLoading: text("port_of_loading"),
    leadTime: text("lead_time"),
    /** Packing lines, one a line. */
    packing: text("packing"),
    /** The proforma invoice's number, of the organisation's own series; issued once, kept. */
    proformaNo: text("proforma_no"),
    proformaIssuedAt: tstz("proforma_issued_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A revision keeps its number: the number and the revision together are one document.
    uniqueIndex("quotations_user_quote_no_key").on(t.userId, t.quoteNo, t.revision),
    uniqueIndex("quotations_org_proforma_no_key")
      .on(t.orgId, t.proformaNo)
      .where(sql`${t.proformaNo} is not null`),
    index("quotations_previous_idx").on(t.previousId),
    check("quotations_revision_non_negative", sql`${t.revision} >= 0`),
    index("quotations_user_created_idx").on(t.userId, t.createdAt),
    index("quotations_user_status_idx").on(t.userId, t.status, t.createdAt),
    index("quotations_org_created_idx").on(t.orgId, t.createdAt),
    index("quotations_org_status_idx").on(t.orgId, t.status, t.createdAt),
    index("quotations_customer_idx").on(t.customerId),
    check(
      "quotations_amounts_non_negative",
      sql`${t.subtotal} >= 0 and ${t.discount} >= 0 and ${t.shipping} >= 0 and ${t.total} >= 0`,
    ),
  ],
);

export const quotationItems = pgTable(
  "quotation_items",
  {
    id: id(),
    quotationId: uuid("quotation_id")
      .notNull()
      .references(() => quotations.id, { onDelete: "cascade" }),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    unit: text("unit").notNull().default("pcs"),
    quantity: integer("quantity").notNull(),
    /** Minor units of the quotation's currency. */
    unitPrice: integer("unit_price").notNull(),
    lineTotal: integer("line_total").notNull(),
  },
  (t) => [
    index("quotation_items_quotation_idx").on(t.quotationId, t.position),
    check("quotation_items_quantity_positive", sql`${t.quantity} > 0`),
    check("quotation_items_price_non_negative", sql`${t.unitPrice} >= 0`),
  ],
);

/** Daily reference rates, cached per (base, quote, date, source). */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    base: text("base").notNull(),
    quote: text("quote").notNull(),
    date: date("date").notNull(),
    source: text("source").notNull(),
    /** Exact decimal as published (ECB gives up to 6 significant digits). */
    rate: numeric("rate", { precision: 24, scale: 12 }).notNull(),
    fetchedAt: tstz("fetched_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.base, t.quote, t.date, t.source] }),
    index("exchange_rates_base_date_idx").on(t.base, t.date),
  ],
);

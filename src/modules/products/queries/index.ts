import { type Column, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import { products } from "../../../db/schema";
import { callerOrgSql, callerSeesAllSql, inCallerOrg } from "../../../db/scope";
import { type ColumnName, col, columnList, columnNames, type DbRow } from "../../../db/sql";
import { forbidden } from "../../../http/errors";
import { escapeLike } from "../../../lib/sql-text";

const p = products;

// The catalogue is the organisation's (docs/teams.md): every member reads and quotes all of it;
// a manager, an admin or the owner keeps it (creates, edits, deletes, imports), so what the
// whole company quotes from is not changed by whoever happens to edit it.

/** A text[] parameter, passed as JSON (the drivers differ on array parameters). */
const textArray = (values: readonly string[]) =>
  sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))::text[]`;

/** The products the caller sees: all of their organisation's. */
const readable = (table: { orgId: AnyPgColumn }, userId: string) => inCallerOrg(table, userId);

/** The products the caller may change: their organisation's, when manager or above. */
const writable = (table: { orgId: AnyPgColumn }, userId: string) =>
  sql`(${inCallerOrg(table, userId)} and ${callerSeesAllSql(userId)})`;

/** Whether the caller may change the catalogue (manager or above), as a statement's column. */
const canKeepCatalogue = (userId: string) => callerSeesAllSql(userId);

/** The refusal of a member's change to the catalogue (403). */
export const catalogueRefused = () =>
  forbidden("Only a manager, an admin or the owner can change the product catalogue");

const COLUMNS = columnList([
  p.id,
  p.name,
  p.sku,
  p.description,
  p.category,
  p.unit,
  p.price,
  p.currency,
  p.moq,
  p.leadTimeDays,
  p.aliases,
  p.hsCode,
  p.imageUrl,
  p.specs,
  p.createdAt,
  p.updatedAt,
]);

export type ProductRow = Pick<
  DbRow<typeof products>,
  | "id"
  | "name"
  | "sku"
  | "description"
  | "category"
  | "unit"
  | "price"
  | "currency"
  | "moq"
  | "lead_time_days"
  | "aliases"
  | "hs_code"
  | "image_url"
  | "specs"
  | "created_at"
  | "updated_at"
>;

type ProductSort =
  | "created_at"
  | "-created_at"
  | "name"
  | "-name"
  | "price"
  | "-price"
  | "sku"
  | "-sku";

const ORDER: Record<ProductSort, SQL> = {
  created_at: sql`${p.createdAt} asc, ${p.id} asc`,
  "-created_at": sql`${p.createdAt} desc, ${p.id} desc`,
  name: sql`lower(${p.name}) asc, ${p.id}`,
  "-name": sql`lower(${p.name}) desc, ${p.id}`,
  price: sql`${p.price} asc nulls last, ${p.id}`,
  "-price": sql`${p.price} desc nulls last, ${p.id}`,
  sku: sql`${p.sku} asc nulls last, ${p.id}`,
  "-sku": sql`${p.sku} desc nulls last, ${p.id}`,
};

/** A page of the organisation's products; `q` matches name or SKU, case-insensitively. */
export function listProducts(
  db: Db,
  params: {
    userId: string;
    q?: string | undefined;
    category?: string | undefined;
    sort: ProductSort;
    page: number;
    size: number;
  },
) {
  const filters: SQL[] = [readable(p, params.userId)];
  if (params.q) {
    const pattern = `%${escapeLike(params.q.toLowerCase())}%`;
    filters.push(sql`(lower(${p.name}) like ${pattern} or lower(${p.sku}) like ${pattern})`);
  }
  if (params.category) filters.push(sql`${p.category} = ${params.category}`);
  return selectPage<ProductRow>(db, {
    columns: COLUMNS,
    from: sql`${p}`,
    where: sql.join(filters, sql` and `),
    order: ORDER[params.sort],
    page: params.page,
    size: params.size,
  });
}

export async function getProduct(
  db: Db,
  params: { userId: string; id: string },
): Promise<ProductRow | undefined> {
  const [row] = await queryRows<ProductRow>(
    db,
    sql`select ${COLUMNS} from ${p} where ${p.id} = ${params.id} and ${readable(p, params.userId)}`,
  );
  return row;
}

export interface ProductValues {
  name: string;
  sku: string | null;
  description: string | null;
  category: string | null;
  unit: string;
  price: number | null;
  currency: string;
  moq: number | null;
  lead_time_days: number | null;
  aliases: string[];
  hs_code: string | null;
  image_url: string | null;
  specs: Record<string, string> | null;
}

/** Inserts a product into the caller's catalogue; undefined when the caller may not keep it. */
export async function insertProduct(
  db: Db,
  params: { id: string; userId: string; values: ProductValues },
): Promise<ProductRow | undefined> {
  const v = params.values;
  const [row] = await queryRows<ProductRow>(
    db,
    sql`insert into ${p} (${columnNames([p.id, p.orgId, p.userId, p.name, p.sku, p.description, p.category, p.unit, p.price, p.currency, p.moq, p.leadTimeDays, p.aliases, p.hsCode, p.imageUrl, p.specs])})
        select ${params.id}, ${callerOrgSql(params.userId)}, ${params.userId}, ${v.name}, ${v.sku},
          ${v.description}, ${v.category}, ${v.unit},
          ${v.price}, ${v.currency}, ${v.moq}, ${v.lead_time_days}, ${textArray(v.aliases)},
          ${v.hs_code}, ${v.image_url},
          ${v.specs ? JSON.stringify(v.specs) : null}::jsonb
        where ${canKeepCatalogue(params.userId)}
        returning ${COLUMNS}`,
  );
  return row;
}

/** The columns a PATCH may set directly. */
const PATCHABLE = {
  name: p.name,
  sku: p.sku,
  description: p.description,
  category: p.category,
  unit: p.unit,
  price: p.price,
  currency: p.currency,
  moq: p.moq,
  lead_time_days: p.leadTimeDays,
  hs_code: p.hsCode,
  image_url: p.imageUrl,
} as const satisfies Partial<Record<ColumnName<typeof products>, Column>>;

/**
 * Sets the given fields (undefined: unchanged) and updated_at; undefined when the caller may
 * not change the product (not in their catalogue, or not manager or above).
 */
export async function updateProduct(
  db: Db,
  params: {
    userId: string;
    id: string;
    patch: Partial<Record<keyof typeof PATCHABLE, unknown>> & {
      specs?: Record<string, string> | null;
      aliases?: string[] | null;
    };
  },
): Promise<ProductRow | undefined> {
  const { patch } = params;
  const sets = (Object.keys(PATCHABLE) as (keyof typeof PATCHABLE)[])
    .filter((k) => patch[k] !== undefined)
    .map((k) => sql`${col(PATCHABLE[k])} = ${patch[k]}`);
  if (patch.specs !== undefined) {
    sets.push(sql`${col(p.specs)} = ${patch.specs ? JSON.stringify(patch.specs) : null}::jsonb`);
  }
  if (patch.aliases !== undefined) {
    sets.push(sql`${col(p.aliases)} = ${textArray(patch.aliases ?? [])}`);
  }
  const [row] = await queryRows<ProductRow>(
    db,
    sql`update ${p} set ${sql.join([...sets, sql`${col(p.updatedAt)} = now()`], sql`, `)}
        where ${p.id} = ${params.id} and ${writable(p, params.userId)} returning ${COLUMNS}`,
  );
  return row;
}

/** Whether a row was deleted. */
export async function deleteProduct(
  db: Db,
  params: { userId: string; id: string },
): Promise<boolean> {
  const rows = await queryRows<Pick<DbRow<typeof products>, "id">>(
    db,
    sql`delete from ${p} where ${p.id} = ${params.id} and ${writable(p, params.userId)}
        returning ${p.id}`,
  );
  return rows.length > 0;
}

/** A product as a prompt shows it: its row without the image and the times. */
export type ProductFacts = Omit<ProductRow, "image_url" | "created_at" | "updated_at">;

/** The facts of a product of the caller's catalogue a prompt shows (marketing). */
export async function getProductFacts(
  db: Db,
  params: { userId: string; id: string },
): Promise<ProductFacts | undefined> {
  const [row] = await queryRows<ProductFacts>(
    db,
    sql`select ${columnList([p.id, p.name, p.sku, p.description, p.category, p.unit, p.price, p.currency, p.moq, p.leadTimeDays, p.aliases, p.hsCode, p.specs])}
        from ${p} where ${p.id} = ${params.id} and ${readable(p, params.userId)}`,
  );
  return row;
}

export type ProductRef = Pick<
  DbRow<typeof products>,
  "id" | "name" | "unit" | "price" | "currency" | "description"
>;

/**
 * The products of the caller's catalogue among `ids` (another organisation's are not found),
 * for quotation items.
 */
export function getProductRefs(
  db: Db,
  params: { userId: string; ids: string[] },
): Promise<ProductRef[]> {
  return queryRows<ProductRef>(
    db,
    sql`select ${columnList([p.id, p.name, p.unit, p.price, p.currency, p.description])} from ${p}
        where ${readable(p, params.userId)} and ${p.id} in ${params.ids}`,
  );
}

/** How an inquiry line found its product: its SKU, one of the product's aliases, or a similar name. */
export type MatchKind = "exact" | "alias" | "fuzzy";

export type ProductMatch = { i: number } & {
  [K in "id" | "name" | "unit" | "price" | "currency"]: DbRow<typeof products>[K] | null;
} & { match: MatchKind | null; similarity: number | string | null };

/**
 * Each wanted item's best product of the caller's catalogue, in one statement, by rank:
 * `exact` (the item's sku or its name equal to the product's SKU, case-insensitively; score 1),
 * then `alias` (the item's name equal to one of the product's aliases, score 0.95, or containing
 * one of at least 2 characters, score 0.85: a buyer writes "LED面板灯 600x600" for the alias
 * "LED面板灯"; an ASCII alias only as whole words), then `fuzzy` (the best pg_trgm similarity of the name against the product's name
 * and aliases, kept at `threshold` or above). `name` and `sku` are lower-cased by the caller.
 */
export function matchProducts(
  db: Db,
  params: {
    userId: string;
    wanted: { i: number; name: string; sku: string | null }[];
    threshold: number;
  },
): Promise<ProductMatch[]> {
  const m = alias(products, "p");
  return queryRows<ProductMatch>(
    db,
    sql`with wanted as (
          select (w->>'i')::int as i, w->>'name' as name, w->>'sku' as sku
          from jsonb_array_elements(${JSON.stringify(params.wanted)}::jsonb) as t(w)),
        scored as (
          select w.i, ${columnList([m.id, m.name, m.unit, m.price, m.currency, m.createdAt])},
            case when f.by_sku then 3 when f.by_alias or f.in_alias then 2 else 1 end as rank,
            case when f.by_sku then 1
                 when f.by_alias then 0.95
                 when f.in_alias then 0.85
                 else greatest(similarity(lower(${m.name}), w.name),
                   coalesce((select max(similarity(lower(a), w.name)) from unnest(${m.aliases}) a), 0))
                 end::float8 as similarity
          from wanted w join ${products} ${m} on ${readable(m, params.userId)}
          cross join lateral (select
            coalesce(lower(${m.sku}) in (w.sku, w.name), false) as by_sku,
            exists (select 1 from unnest(${m.aliases}) a where lower(a) = w.name) as by_alias,
            -- An alias inside the line's name: an ASCII one as whole words (spaces and
            -- punctuation separate them: "pan" is not in "solar panel", "LED-Panel" is in
            -- "led panel 60x60"), one with other letters (Chinese, Arabic, umlauts) anywhere.
            exists (select 1 from unnest(${m.aliases}) a
                    where char_length(a) >= 2 and case
                      when octet_length(a) = char_length(a) then position(
                        ' ' || regexp_replace(lower(a), '[[:space:][:punct:]]+', ' ', 'g') || ' '
                        in ' ' || regexp_replace(w.name, '[[:space:][:punct:]]+', ' ', 'g') || ' ') > 0
                      else position(lower(a) in w.name) > 0 end) as in_alias) f)
        select w.i, s.id, s.name, s.unit, s.price, s.currency, s.similarity,
          case s.rank when 3 then 'exact' when 2 then 'alias' when 1 then 'fuzzy' end as match
        from wanted w
        left join lateral (
          select * from scored s where s.i = w.i and (s.rank > 1 or s.similarity >= ${params.threshold})
          order by s.rank desc, s.similarity desc, s.created_at, s.id
          limit 1) s on true
        order by w.i`,
  );
}

/** An existing product an import row may update: its SKU and lower-cased name. */
export interface ProductImportMatch {
  id: DbRow<typeof products>["id"];
  primary: DbRow<typeof products>["sku"];
  secondary: string | null;
}

/** The catalogue's products with one of the SKUs or (lower-cased) names, oldest first. */
export function findProductsForImport(
  db: Db,
  params: { userId: string; skus: string[]; names: string[] },
): Promise<ProductImportMatch[]> {
  const skus = JSON.stringify(params.skus);
  const names = JSON.stringify(params.names);
  return queryRows<ProductImportMatch>(
    db,
    sql`select ${p.id}, ${p.sku} as "primary", lower(${p.name}) as secondary from ${p}
      where ${readable(p, params.userId)} and (
        ${p.sku} in (select jsonb_array_elements_text(${skus}::jsonb))
        or lower(${p.name}) in (select jsonb_array_elements_text(${names}::jsonb)))
      order by ${p.createdAt}, ${p.id}`,
  );
}

/**
 * One statement: updates the rows with an id (a null field keeps the stored value) and inserts
 * the rows without one. Each row carries the import's field names (the column names). A member
 * (who may not keep the catalogue) writes nothing and is refused with 403.
 */
export async function upsertImportedProducts(
  db: Db,
  params: { userId: string; now: string; rows: Record<string, unknown>[] },
): Promise<void> {
  const payload = JSON.stringify(params.rows);
  const { userId, now } = params;
  const u = alias(products, "p");
  // A row's aliases (a JSON array, or absent) as text[]; null when the row has none.
  const importedAliases = sql`(case when jsonb_typeof(i.aliases) = 'array'
    then array(select jsonb_array_elements_text(i.aliases)) end)::text[]`;
  const keep = (column: Column) => sql`${col(column)} = coalesce(i.${col(column)}, ${column})`;
  const [result] = await queryRows<{ allowed: boolean }>(
    db,
    sql`with input as (
        select * from jsonb_to_recordset(${payload}::jsonb) as x(
          id uuid, name text, sku text, price int, currency text, unit text, moq int,
          category text, description text, hs_code text, lead_time_days int, aliases jsonb)),
      upd as (
        update ${products} p set
          ${sql.join(
            [
              u.name,
              u.sku,
              u.price,
              u.currency,
              u.unit,
              u.moq,
              u.category,
              u.description,
              u.hsCode,
            ].map(keep),
            sql`, `,
          )},
          ${col(u.leadTimeDays)} = coalesce(i.${col(u.leadTimeDays)}, ${u.leadTimeDays}),
          ${col(u.aliases)} = coalesce(${importedAliases}, ${u.aliases}),
          ${col(u.updatedAt)} = ${now}::timestamptz
        from input i
        where i.id is not null and ${u.id} = i.id and ${writable(u, userId)}
        returning ${u.id}),
      ins as (
        insert into ${products} (${columnNames([p.orgId, p.userId, p.name, p.sku, p.price, p.currency, p.unit, p.moq, p.category, p.description, p.hsCode, p.leadTimeDays, p.aliases, p.createdAt, p.updatedAt])})
        select ${callerOrgSql(userId)}, ${userId}::uuid, i.name, i.sku, i.price, coalesce(i.currency, 'USD'),
          coalesce(i.unit, 'pcs'), i.moq, i.category, i.description, i.hs_code,
          i.lead_time_days, coalesce(${importedAliases}, '{}'::text[]),
          ${now}::timestamptz, ${now}::timestamptz
        from input i where i.id is null and ${canKeepCatalogue(userId)}
        returning ${p.id})
      select (select count(*) from upd)::int as updated, (select count(*) from ins)::int as created,
        ${canKeepCatalogue(userId)} as allowed`,
  );
  if (result?.allowed !== true) throw catalogueRefused();
}

/** A product as exported: every field the import reads. */
export type ProductExportRow = Pick<
  DbRow<typeof products>,
  | "name"
  | "sku"
  | "price"
  | "currency"
  | "unit"
  | "moq"
  | "category"
  | "description"
  | "hs_code"
  | "lead_time_days"
  | "aliases"
>;

/** The products of the caller's catalogue, oldest first. */
export function exportProducts(db: Db, params: { userId: string }): Promise<ProductExportRow[]> {
  return queryRows<ProductExportRow>(
    db,
    sql`select ${columnList([p.name, p.sku, p.price, p.currency, p.unit, p.moq, p.category, p.description, p.hsCode, p.leadTimeDays, p.aliases])}
      from ${p} where ${readable(p, params.userId)} order by ${p.createdAt}, ${p.id}`,
  );
}

import { type Column, type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { aiProviders, searchProviders } from "../../db/schema";
import { col, columnList, type DbRow } from "../../db/sql";
import { type Actor, type AuditedWrite, auditCte, lockBefore } from "../admin/queries/audit";

/**
 * The SQL of a provider admin (AI providers, search providers): one table of providers with a
 * write-only key, every write with its audit row in the same statement. The table is the
 * owner's (ai-admin: ai_providers, discovery: search_providers); it is passed in.
 */
export type ProviderTable = typeof aiProviders | typeof searchProviders;

type CommonColumn = keyof DbRow<typeof aiProviders> & keyof DbRow<typeof searchProviders>;
type Shown = Exclude<CommonColumn, "api_key_ciphertext">;

/** A provider as the admin sees it: never the ciphertext, whether a key is set. */
export type ProviderRow<T extends ProviderTable> = {
  [K in Shown]: DbRow<T>[K & keyof DbRow<T>];
} & { api_key_set: boolean };

/** Never the ciphertext: whether a key is set and its last 4 characters. */
function shownColumns(table: ProviderTable, extra: readonly Column[]): SQL {
  return sql`${table.id}, ${table.name}, ${table.kind}, ${table.baseUrl},
    ${table.apiKeyCiphertext} is not null as api_key_set, ${table.apiKeyHint},
    ${extra.length > 0 ? sql`${columnList(extra)}, ` : sql``}${table.enabled}, ${table.timeoutMs},
    ${table.createdAt}, ${table.updatedAt}`;
}

/** The same columns over the written rows `w` of a statement. */
function writtenColumns(table: ProviderTable, extra: readonly Column[]): SQL {
  const names = [
    table.id,
    table.name,
    table.kind,
    table.baseUrl,
    table.apiKeyHint,
    ...extra,
    table.enabled,
    table.timeoutMs,
    table.createdAt,
    table.updatedAt,
  ].map((c) => sql`w.${col(c)}`);
  names.splice(4, 0, sql`w.${col(table.apiKeyCiphertext)} is not null as api_key_set`);
  return sql.join(names, sql`, `);
}

export interface ProviderTableSpec<T extends ProviderTable> {
  table: T;
  /** Columns shown besides the common ones (placed after api_key_hint), e.g. models. */
  extraColumns: readonly Column[];
  /** Values of the extra columns a create or a patch sets (none when the body leaves them out). */
  // biome-ignore lint/suspicious/noExplicitAny: each table's own body type
  extraValues: (body: any) => [Column, SQL][];
}

/** A key as stored: its ciphertext and hint (both null without a key). */
interface SealedKey {
  ciphertext: string | null;
  hint: string | null;
}

export async function listProviderRows<T extends ProviderTable, R>(
  db: Db,
  spec: ProviderTableSpec<T>,
  query: { page: number; size: number; kind?: string | undefined; enabled?: boolean | undefined },
) {
  const { table } = spec;
  const filters: SQL[] = [sql`true`];
  if (query.kind) filters.push(sql`${table.kind} = ${query.kind}`);
  if (query.enabled !== undefined) filters.push(sql`${table.enabled} = ${query.enabled}`);
  return selectPage<R>(db, {
    columns: shownColumns(table, spec.extraColumns),
    from: sql`${table}`,
    where: sql.join(filters, sql` and `),
    order: sql`${table.name}, ${table.id}`,
    page: query.page,
    size: query.size,
  });
}

export async function getProviderRow<T extends ProviderTable, R>(
  db: Db,
  spec: ProviderTableSpec<T>,
  id: string,
): Promise<R | undefined> {
  const { table } = spec;
  const [row] = await queryRows<R>(
    db,
    sql`select ${shownColumns(table, spec.extraColumns)} from ${table} where ${table.id} = ${id}`,
  );
  return row;
}

/** Audit settings of a write: the action and the write's kind come from the caller. */
type Audit = Omit<AuditedWrite, "rows">;

/** Inserts one provider with its audit row. */
export async function insertProviderRow<T extends ProviderTable, R>(
  db: Db,
  spec: ProviderTableSpec<T>,
  input: {
    body: {
      name: string;
      kind: string;
      base_url: string;
      enabled: boolean;
      timeout_ms: number;
    };
    key: SealedKey;
    at: string;
    actor: Actor;
    audit: Audit;
  },
): Promise<R | undefined> {
  const { table } = spec;
  const { body, key, at } = input;
  const values: [Column, SQL][] = [
    [table.name, sql`${body.name}`],
    [table.kind, sql`${body.kind}`],
    [table.baseUrl, sql`${body.base_url}`],
    [table.apiKeyCiphertext, sql`${key.ciphertext}`],
    [table.apiKeyHint, sql`${key.hint}`],
    ...spec.extraValues(body),
    [table.enabled, sql`${body.enabled}`],
    [table.timeoutMs, sql`${body.timeout_ms}`],
    [table.createdAt, sql`${at}::timestamptz`],
    [table.updatedAt, sql`${at}::timestamptz`],
  ];
  const [row] = await queryRows<R>(
    db,
    sql`with w as (
        insert into ${table} (${sql.join(
          values.map(([c]) => col(c)),
          sql`, `,
        )})
        values (${sql.join(
          values.map(([, v]) => v),
          sql`, `,
        )})
        returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select ${writtenColumns(table, spec.extraColumns)} from w`,
  );
  return row;
}

/**
 * Updates one provider with its audit row, where two guards hold: a provider of `refuse.kind`
 * is not changed when `refuse.refused` (the patch is one that kind cannot take), and a new
 * base_url (`rebindTo`) is taken only with a new key or when no key is stored. The row is
 * locked and read as it was before (the audit's before side) in the statement.
 */
export async function updateProviderRow<T extends ProviderTable, R>(
  db: Db,
  spec: ProviderTableSpec<T>,
  input: {
    id: string;
    patch: {
      name?: string | undefined;
      base_url?: string | undefined;
      enabled?: boolean | undefined;
      timeout_ms?: number | undefined;
    };
    /** Undefined: the key stays as it is. */
    key: SealedKey | undefined;
    at: string;
    refuse: { kind: string; refused: boolean };
    rebindTo: string | undefined;
    actor: Actor;
    audit: Audit;
  },
): Promise<R | undefined> {
  const { table } = spec;
  const { patch, key } = input;
  const plain: [Column, unknown][] = [
    [table.name, patch.name],
    [table.baseUrl, patch.base_url],
    [table.enabled, patch.enabled],
    [table.timeoutMs, patch.timeout_ms],
  ];
  const sets: SQL[] = [
    ...plain.filter(([, v]) => v !== undefined).map(([c, v]) => sql`${col(c)} = ${v}`),
    ...spec.extraValues(patch).map(([c, v]) => sql`${col(c)} = ${v}`),
    ...(key
      ? [
          sql`${col(table.apiKeyCiphertext)} = ${key.ciphertext}, ${col(table.apiKeyHint)} = ${key.hint}`,
        ]
      : []),
    sql`${col(table.updatedAt)} = ${input.at}::timestamptz`,
  ];
  const keyStaysBound =
    input.rebindTo !== undefined
      ? sql`(${table.baseUrl} = ${input.rebindTo} or ${table.apiKeyCiphertext} is null)`
      : sql`true`;
  const old = lockBefore(table, input.id);
  const [row] = await queryRows<R>(
    db,
    sql`with w as (
        update ${table} set ${sql.join(sets, sql`, `)}
        from ${old.from}
        where ${old.where} and (${table.kind} <> ${input.refuse.kind} or not ${input.refuse.refused})
          and ${keyStaysBound}
        returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select ${writtenColumns(table, spec.extraColumns)} from w`,
  );
  return row;
}

/** Deletes one provider with its audit row; whether it existed. */
export async function deleteProviderRow<T extends ProviderTable>(
  db: Db,
  spec: ProviderTableSpec<T>,
  input: { id: string; actor: Actor; audit: Audit },
): Promise<boolean> {
  const { table } = spec;
  const rows = await queryRows<Pick<DbRow<T>, "id">>(
    db,
    sql`with w as (delete from ${table} where ${table.id} = ${input.id} returning *),
      ${auditCte(input.actor, { ...input.audit, rows: sql`w` })}
      select w.${col(table.id)} from w`,
  );
  return rows.length > 0;
}

import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { SearchProviderKind } from "../../db/schema";
import type { Deps } from "../../deps";
import { conflict, notFound, type ValidationIssue, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import {
  type Actor,
  apiKeySets,
  assertOutboundUrl,
  auditCte,
  changedFields,
  KEY_REBIND_ISSUE,
  lockBefore,
  patchSets,
  rethrowUnique,
  type SecretState,
  sealedKey,
  secretAfter,
} from "../admin/writes";
import type { ProviderInput, ProviderPatchInput } from "./schemas";

/**
 * Admin CRUD of search providers, on the conventions of the AI providers admin
 * (src/modules/ai-admin/service.ts): keys write-only (encrypted, last 4 characters kept as a
 * hint), unique names (409), and every write with its `search_provider.*` row in
 * admin_audit_log in the same statement (src/modules/admin/writes.ts).
 */

interface ProviderRow {
  id: string;
  name: string;
  kind: SearchProviderKind;
  base_url: string;
  api_key_set: boolean;
  api_key_hint: string | null;
  enabled: boolean;
  timeout_ms: number;
  created_at: Date;
  updated_at: Date;
}

/** Never the ciphertext: whether a key is set and its last 4 characters. */
const COLUMNS = sql.raw(`id, name, kind, base_url,
  api_key_ciphertext is not null as api_key_set, api_key_hint, enabled, timeout_ms,
  created_at, updated_at`);

const providerOut = (r: ProviderRow) => ({
  ...r,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

const missing = () => notFound("Search provider not found");

/** The audit row shows whether a key is stored, never the key or its ciphertext. */
const apiKeySecret = (after?: SecretState) => ({
  api_key: { column: "api_key_ciphertext", after },
});

export async function listSearchProviders(
  deps: Deps,
  query: { page: number; size: number; kind?: SearchProviderKind; enabled?: boolean },
) {
  const filters: SQL[] = [sql`true`];
  if (query.kind) filters.push(sql`kind = ${query.kind}`);
  if (query.enabled !== undefined) filters.push(sql`enabled = ${query.enabled}`);
  const { rows, total } = await selectPage<ProviderRow>(deps.db, {
    columns: COLUMNS,
    from: sql`search_providers`,
    where: sql.join(filters, sql` and `),
    order: sql`name, id`,
    page: query.page,
    size: query.size,
  });
  return { items: rows.map(providerOut), total, page: query.page, size: query.size };
}

export async function getSearchProvider(deps: Deps, id: string) {
  const [row] = await queryRows<ProviderRow>(
    deps.db,
    sql`select ${COLUMNS} from search_providers where id = ${id}`,
  );
  if (!row) throw missing();
  return providerOut(row);
}

export async function createSearchProvider(deps: Deps, actor: Actor, input: ProviderInput) {
  assertOutboundUrl(deps.config, input.base_url);
  const key = await sealedKey(deps.keys.encryption, input.api_key);
  const now = nowIso(deps);
  const [row] = await queryRows<ProviderRow>(
    deps.db,
    sql`with w as (
        insert into search_providers (name, kind, base_url, api_key_ciphertext, api_key_hint,
          enabled, timeout_ms, created_at, updated_at)
        values (${input.name}, ${input.kind}, ${input.base_url}, ${key.ciphertext},
          ${key.hint}, ${input.enabled},
          ${input.timeout_ms}, ${now}::timestamptz, ${now}::timestamptz)
        returning *),
      ${auditCte(actor, {
        action: "search_provider.create",
        target: "search_provider",
        rows: sql`w`,
        kind: "create",
        fields: changedFields(input),
        secrets: apiKeySecret(),
      })}
      select ${COLUMNS} from w`,
  ).catch(rethrowUnique(`A search provider named ${input.name} exists`));
  return providerOut(row!);
}

/** A brave provider keeps its key (the Brave API needs one): the guard is in the statement. */
export async function updateSearchProvider(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: ProviderPatchInput,
) {
  assertOutboundUrl(deps.config, patch.base_url);
  const updates = [
    ...patchSets(["name", "base_url", "enabled", "timeout_ms"], patch),
    ...(await apiKeySets(deps.keys.encryption, patch.api_key)),
  ];
  const clearsKey = patch.api_key === null;
  // A stored key belongs to the host it was entered for: a new base_url needs the key again.
  const rebindsKey = patch.base_url !== undefined && patch.api_key === undefined;
  const keyStaysBound = rebindsKey
    ? sql`(search_providers.base_url = ${patch.base_url} or search_providers.api_key_ciphertext is null)`
    : sql`true`;
  updates.push(sql`updated_at = ${nowIso(deps)}::timestamptz`);
  const old = lockBefore("search_providers", id);
  const [row] = await queryRows<ProviderRow>(
    deps.db,
    sql`with w as (
        update search_providers set ${sql.join(updates, sql`, `)} from ${old.from}
        where ${old.where} and (kind <> 'brave' or not ${clearsKey}) and ${keyStaysBound}
        returning *),
      ${auditCte(actor, {
        action: "search_provider.update",
        target: "search_provider",
        rows: sql`w`,
        kind: "update",
        fields: changedFields(patch),
        secrets: apiKeySecret(secretAfter(patch.api_key)),
      })}
      select ${COLUMNS} from w`,
  ).catch(rethrowUnique(`A search provider named ${patch.name} exists`));
  if (row) return providerOut(row);
  if (!clearsKey && !rebindsKey) throw missing();
  const current = await getSearchProvider(deps, id); // 404 when there is no such provider
  const issues: ValidationIssue[] = [];
  if (clearsKey && current.kind === "brave") {
    issues.push({
      loc: ["body", "api_key"],
      msg: "A brave provider needs an API key",
      type: "custom",
    });
  }
  if (rebindsKey && current.base_url !== patch.base_url && current.api_key_set) {
    issues.push(KEY_REBIND_ISSUE);
  }
  // Neither guard fails on the row as read now: a concurrent write changed it in between.
  if (issues.length === 0) throw conflict("The search provider changed meanwhile; try again");
  throw validationError(issues);
}

/** Entries of `search.providers_order` naming it are then skipped. */
export async function deleteSearchProvider(deps: Deps, actor: Actor, id: string) {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`with w as (delete from search_providers where id = ${id} returning *),
      ${auditCte(actor, {
        action: "search_provider.delete",
        target: "search_provider",
        rows: sql`w`,
        kind: "delete",
        fields: ["name", "kind", "base_url", "api_key", "enabled", "timeout_ms"],
        secrets: apiKeySecret(),
      })}
      select id from w`,
  );
  if (rows.length === 0) throw missing();
}

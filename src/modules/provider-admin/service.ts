import type { Column, SQL } from "drizzle-orm";
import { conflict, notFound, type ValidationIssue, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import {
  type Actor,
  assertOutboundUrl,
  changedFields,
  KEY_REBIND_ISSUE,
  rethrowUnique,
  type SecretState,
  sealedKey,
  secretAfter,
} from "../admin/writes";
import {
  deleteProviderRow,
  getProviderRow,
  insertProviderRow,
  listProviderRows,
  type ProviderRow,
  type ProviderTable,
  type ProviderTableSpec,
  updateProviderRow,
} from "./queries";

/**
 * One admin of providers with a write-only key (AI providers, search providers): keys are
 * stored encrypted with their last 4 characters as a hint and never returned, names are unique
 * (409), a new base_url needs the key again, and every write has its `<audit>.*` row in
 * admin_audit_log in the same statement (src/modules/admin/writes.ts).
 */

interface ProviderInputBase {
  name: string;
  kind: string;
  base_url: string;
  api_key?: string | undefined;
  enabled: boolean;
  timeout_ms: number;
}

interface ProviderPatchBase {
  name?: string | undefined;
  base_url?: string | undefined;
  api_key?: string | null | undefined;
  enabled?: boolean | undefined;
  timeout_ms?: number | undefined;
}

export interface ProviderAdminConfig<T extends ProviderTable, I, P> extends ProviderTableSpec<T> {
  /** Values of the extra columns a create or a patch sets (none when the body leaves them out). */
  extraValues: (body: I | P) => [Column, SQL][];
  /** The audit target, e.g. `ai_provider` (actions `ai_provider.create`, ...). */
  audit: string;
  /** The fields a delete's audit row records. */
  deleteFields: readonly string[];
  messages: { notFound: string; nameTaken: (name: string | undefined) => string; changed: string };
  /**
   * A patch the providers of one kind refuse (an llm provider without models, a brave one
   * without a key): checked in the update statement, a 422 with `issue` when it refused.
   */
  kindGuard: { kind: string; refuses: (patch: P) => boolean; issue: ValidationIssue };
}

/** The admin of one provider table; `Extra` types the extra columns' values. */
export function createProviderAdmin<
  T extends ProviderTable,
  I extends ProviderInputBase,
  P extends ProviderPatchBase,
  Extra extends object = Record<never, never>,
>(config: ProviderAdminConfig<T, I, P>) {
  type Row = ProviderRow<T> & Extra;
  const { table, messages } = config;
  const spec = config;
  const out = (r: Row) => ({
    ...r,
    created_at: iso(r.created_at as string),
    updated_at: iso(r.updated_at as string),
  });
  const missing = () => notFound(messages.notFound);

  /** The audit row shows whether a key is stored, never the key or its ciphertext. */
  const apiKeySecret = (after?: SecretState) => ({
    api_key: { column: table.apiKeyCiphertext.name, after },
  });

  async function list(
    deps: Deps,
    query: { page: number; size: number; kind?: string | undefined; enabled?: boolean | undefined },
  ) {
    const { rows, total } = await listProviderRows<T, Row>(deps.db, spec, query);
    return { items: rows.map(out), total, page: query.page, size: query.size };
  }

  async function get(deps: Deps, id: string) {
    const row = await getProviderRow<T, Row>(deps.db, spec, id);
    if (!row) throw missing();
    return out(row);
  }

  async function create(deps: Deps, actor: Actor, input: I) {
    assertOutboundUrl(deps.config, input.base_url);
    const key = await sealedKey(deps.keys.encryption, input.api_key);
    const row = await insertProviderRow<T, Row>(deps.db, spec, {
      body: input,
      key,
      at: nowIso(deps),
      actor,
      audit: {
        action: `${config.audit}.create`,
        target: config.audit,
        kind: "create",
        fields: changedFields(input),
        secrets: apiKeySecret(),
      },
    }).catch(rethrowUnique(messages.nameTaken(input.name)));
    return out(row!);
  }

  async function update(deps: Deps, actor: Actor, id: string, patch: P) {
    assertOutboundUrl(deps.config, patch.base_url);
    // `api_key: null` clears the key, a string replaces it, absent keeps it.
    const key =
      patch.api_key === undefined
        ? undefined
        : await sealedKey(deps.keys.encryption, patch.api_key);
    const refused = config.kindGuard.refuses(patch);
    // A stored key belongs to the host it was entered for: a new base_url needs the key again,
    // or an admin session alone could send it anywhere. Guarded in the statement.
    const rebindsKey = patch.base_url !== undefined && patch.api_key === undefined;
    const row = await updateProviderRow<T, Row>(deps.db, spec, {
      id,
      patch,
      key,
      at: nowIso(deps),
      refuse: { kind: config.kindGuard.kind, refused },
      rebindTo: rebindsKey ? patch.base_url : undefined,
      actor,
      audit: {
        action: `${config.audit}.update`,
        target: config.audit,
        kind: "update",
        fields: changedFields(patch),
        secrets: apiKeySecret(secretAfter(patch.api_key)),
      },
    }).catch(rethrowUnique(messages.nameTaken(patch.name)));
    if (row) return out(row);
    if (!refused && !rebindsKey) throw missing();
    const current = await get(deps, id); // 404 when there is no such provider
    const issues: ValidationIssue[] = [];
    if (refused && current.kind === config.kindGuard.kind) issues.push(config.kindGuard.issue);
    if (rebindsKey && current.base_url !== patch.base_url && current.api_key_set) {
      issues.push(KEY_REBIND_ISSUE);
    }
    // Neither guard fails on the row as read now: a concurrent write changed it in between.
    if (issues.length === 0) throw conflict(messages.changed);
    throw validationError(issues);
  }

  async function remove(deps: Deps, actor: Actor, id: string) {
    const existed = await deleteProviderRow(deps.db, spec, {
      id,
      actor,
      audit: {
        action: `${config.audit}.delete`,
        target: config.audit,
        kind: "delete",
        fields: config.deleteFields,
        secrets: apiKeySecret(),
      },
    });
    if (!existed) throw missing();
  }

  return { list, get, create, update, remove };
}

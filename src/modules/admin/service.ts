import { conflict, notFound, validationError } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { isSystemConfigKey } from "../system-config/defaults";
import * as configQueries from "../system-config/queries";
import { SYSTEM_CONFIG_SCHEMAS } from "../system-config/schemas";
import { listUsageLogsPage } from "../usage/queries/admin-logs";
import { getUserWithBalance, takesOutAnAdmin } from "../users/queries";
import { toUserResponse } from "../users/service";
import * as queries from "./queries";
import type { Actor } from "./queries/audit";
import { listOrgsPage } from "./queries/orgs";
import { type AdminUserOrgRow, getAdminUser, listAdminUsersPage } from "./queries/users";
import { changedFields } from "./writes";

function toAdminUser(deps: Deps, row: AdminUserOrgRow) {
  const base = toUserResponse(deps, { ...row, is_guest: false });
  return {
    ...(base as Exclude<typeof base, { is_guest: true }>),
    is_guest: row.is_guest,
    email: row.email,
    last_login_at: iso(row.last_login_at),
    referred_by: row.referred_by,
    org_id: row.org_id,
    org_name: row.org_name,
    org_role: row.org_role,
  };
}

export async function listUsers(
  deps: Deps,
  query: {
    page: number;
    size: number;
    q?: string;
    role?: string;
    status?: string;
    plan?: string;
    is_guest?: boolean;
  },
) {
  const { rows, total } = await listAdminUsersPage(deps.db, {
    page: query.page,
    size: query.size,
    q: query.q,
    role: query.role,
    status: query.status,
    plan: query.plan,
    isGuest: query.is_guest,
  });
  return {
    items: rows.map((r) => toAdminUser(deps, r)),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function getUser(deps: Deps, id: string) {
  const row = await getAdminUser(deps.db, { id });
  if (!row) throw notFound("User not found");
  return toAdminUser(deps, row);
}

/**
 * Changes only the fields sent. Disabling an account also revokes its refresh tokens, and the
 * audit row is written, in the same statement. The last active admin is kept: a patch that would
 * demote or disable it is refused by that statement (users/queries adminPatchedUserCte), a 409.
 */
export async function patchUser(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: { role?: string; status?: string; plan?: string; plan_expires_at?: string | null },
) {
  const row = await queries.patchUser(deps.db, {
    actor,
    id,
    patch,
    fields: changedFields(patch),
    now: nowIso(deps),
  });
  if (!row) {
    // The statement wrote nothing: no such user, or the last-admin guard refused it.
    if (takesOutAnAdmin(patch) && (await getUserWithBalance(deps.db, { id }))) {
      throw conflict(
        "This is the last active admin: make another account admin before demoting or disabling this one",
      );
    }
    throw notFound("User not found");
  }
  return toAdminUser(deps, row);
}

/** The platform's organisations, newest first (GET /api/v1/admin/orgs). */
export async function listOrgs(
  deps: Deps,
  query: { page: number; size: number; q?: string; plan?: string },
) {
  const { rows, total } = await listOrgsPage(deps.db, { ...query, now: nowIso(deps) });
  return {
    items: rows.map((r) => ({
      ...r,
      plan_expires_at: iso(r.plan_expires_at),
      trial_ends_at: iso(r.trial_ends_at),
      created_at: iso(r.created_at),
    })),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function listUsageLogs(
  deps: Deps,
  query: {
    page: number;
    size: number;
    user_id?: string;
    event?: string;
    start_date?: string;
    end_date?: string;
  },
) {
  const { rows, total } = await listUsageLogsPage(deps.db, {
    page: query.page,
    size: query.size,
    userId: query.user_id,
    event: query.event,
    startDate: query.start_date,
    endDate: query.end_date,
  });
  return {
    items: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function listSystemConfig(deps: Deps) {
  const rows = await configQueries.listConfig(deps.db);
  return rows.map((r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() }));
}

export async function getSystemConfig(deps: Deps, key: string) {
  const row = await configQueries.getConfig(deps.db, { key });
  if (!row) throw notFound("Unknown config key");
  return { ...row, updated_at: new Date(row.updated_at).toISOString() };
}

/**
 * Only known keys, each validated against its own schema before it is stored, with the audit
 * row (the value before and after) in the same statement.
 */
export async function putSystemConfig(deps: Deps, actor: Actor, key: string, value: unknown) {
  if (!isSystemConfigKey(key)) throw notFound("Unknown config key");
  const parsed = SYSTEM_CONFIG_SCHEMAS[key].safeParse(value);
  if (!parsed.success) {
    throw validationError(
      parsed.error.issues.map((issue) => ({
        loc: ["body", "value", ...issue.path.map(String)],
        msg: issue.message,
        type: issue.code,
      })),
    );
  }
  const row = await configQueries.putConfig(deps.db, { actor, key, value: parsed.data });
  return { ...row, updated_at: new Date(row.updated_at).toISOString() };
}

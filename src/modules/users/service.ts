import { eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { userCredits, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { iso, nowIso } from "../../lib/clock";
import type { GuestUserResponse, UserResponse } from "../auth/schemas";
import { entitlementsJsonSql, parseEntitlements } from "../entitlements/service";

/** A users row as raw SQL returns it, plus the joined credit balance. */
export interface UserRow {
  id: string;
  email: string | null;
  password_hash: string | null;
  name: string | null;
  company: string | null;
  phone: string | null;
  country: string | null;
  language: string | null;
  role: "user" | "admin";
  status: "active" | "disabled";
  is_guest: boolean;
  wechat_openid: string | null;
  plan: string;
  plan_expires_at: Date | string | null;
  trial_ends_at: Date | string | null;
  referral_code: string;
  created_at: Date | string;
  credits: number | null;
  email_verified_at?: Date | string | null;
  /** findUserWithCredits only: the plan in effect, its features and limits with usage. */
  entitlements?: unknown;
}

/** plan, features and limits when the row carries them (GET /auth/me). */
function entitlementsOf(row: UserRow) {
  if (row.entitlements === undefined || row.entitlements === null) return { plan: row.plan };
  const { plan, features, limits } = parseEntitlements(row.entitlements);
  return { plan, features, limits };
}

export function toUserResponse(deps: Deps, row: UserRow): UserResponse | GuestUserResponse {
  const credits = Number(row.credits ?? 0);
  if (row.is_guest) {
    return {
      id: row.id,
      is_guest: true,
      name: row.name,
      role: "user",
      credits,
      created_at: iso(row.created_at)!,
      ...entitlementsOf(row),
    };
  }
  const trialEnds = iso(row.trial_ends_at);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    company: row.company,
    phone: row.phone,
    country: row.country,
    language: row.language,
    role: row.role,
    status: row.status,
    is_guest: false,
    ...entitlementsOf(row),
    plan_expires_at: iso(row.plan_expires_at),
    trial_ends_at: trialEnds,
    is_trial_active: trialEnds !== null && new Date(trialEnds) > deps.clock.now(),
    referral_code: row.referral_code,
    credits,
    has_wechat: row.wechat_openid !== null,
    created_at: iso(row.created_at)!,
    email_verified: row.email_verified_at !== undefined && row.email_verified_at !== null,
  };
}

/** users.* under the snake_case names raw SQL returns, plus the balance. */
const userRowColumns = {
  id: users.id,
  email: users.email,
  password_hash: users.passwordHash,
  name: users.name,
  company: users.company,
  phone: users.phone,
  country: users.country,
  language: users.language,
  role: users.role,
  status: users.status,
  is_guest: users.isGuest,
  wechat_openid: users.wechatOpenid,
  plan: users.plan,
  plan_expires_at: users.planExpiresAt,
  trial_ends_at: users.trialEndsAt,
  referral_code: users.referralCode,
  created_at: users.createdAt,
  credits: userCredits.balance,
  email_verified_at: users.emailVerifiedAt,
};

function prepareFindUser(db: Db) {
  return db
    .select({
      ...userRowColumns,
      entitlements: entitlementsJsonSql(
        { id: users.id, plan: users.plan, expiresAt: users.planExpiresAt },
        sql`${sql.placeholder("now")}::timestamptz`,
      ),
    })
    .from(users)
    .leftJoin(userCredits, eq(userCredits.userId, users.id))
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("find_user_with_credits");
}

// Named statement: Postgres parses and plans the hottest query once per connection.
const preparedFindUser = new WeakMap<Db, ReturnType<typeof prepareFindUser>>();

/** One round trip: the user, their balance, and their plan in effect with features and limits. */
export async function findUserWithCredits(
  deps: Deps,
  userId: string,
): Promise<UserRow | undefined> {
  let statement = preparedFindUser.get(deps.db);
  if (!statement) {
    statement = prepareFindUser(deps.db);
    preparedFindUser.set(deps.db, statement);
  }
  const [row] = await statement.execute({ id: userId, now: nowIso(deps) });
  return row;
}

export interface ProfilePatch {
  name?: string | null;
  company?: string | null;
  phone?: string | null;
  country?: string | null;
  language?: string | null;
}

const PROFILE_COLUMNS = ["name", "company", "phone", "country", "language"] as const;

export async function updateProfile(
  deps: Deps,
  userId: string,
  patch: ProfilePatch,
): Promise<UserRow | undefined> {
  const sets = PROFILE_COLUMNS.filter((column) => patch[column] !== undefined).map(
    (column) => sql`${sql.identifier(column)} = ${patch[column] || null}`,
  );
  const [row] = await queryRows<UserRow>(
    deps.db,
    sql`with u as (
          update users set ${sql.join(sets, sql`, `)}, updated_at = ${deps.clock.now()}
          where id = ${userId} and status = 'active' returning *)
        select u.*, c.balance as credits from u left join user_credits c on c.user_id = u.id`,
  );
  return row;
}

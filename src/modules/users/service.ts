import { eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { userCredits, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { iso } from "../../lib/clock";
import type { GuestUserResponse, UserResponse } from "../auth/schemas";

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
}

export function toUserResponse(deps: Deps, row: UserRow): UserResponse | GuestUserResponse {
  const credits = Number(row.credits ?? 0);
  if (row.is_guest) {
    return {
      id: row.id,
      is_guest: true,
      name: row.name,
      role: "user",
      plan: row.plan,
      credits,
      created_at: iso(row.created_at)!,
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
    plan: row.plan,
    plan_expires_at: iso(row.plan_expires_at),
    trial_ends_at: trialEnds,
    is_trial_active: trialEnds !== null && new Date(trialEnds) > deps.clock.now(),
    referral_code: row.referral_code,
    credits,
    has_wechat: row.wechat_openid !== null,
    created_at: iso(row.created_at)!,
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
};

function prepareFindUser(db: Db) {
  return db
    .select(userRowColumns)
    .from(users)
    .leftJoin(userCredits, eq(userCredits.userId, users.id))
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("find_user_with_credits");
}

// Named statement: Postgres parses and plans the hottest query once per connection.
const preparedFindUser = new WeakMap<Db, ReturnType<typeof prepareFindUser>>();

/** One round trip: the user and their balance. */
export async function findUserWithCredits(
  deps: Deps,
  userId: string,
): Promise<UserRow | undefined> {
  let statement = preparedFindUser.get(deps.db);
  if (!statement) {
    statement = prepareFindUser(deps.db);
    preparedFindUser.set(deps.db, statement);
  }
  const [row] = await statement.execute({ id: userId });
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

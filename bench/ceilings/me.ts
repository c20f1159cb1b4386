import { captureMeStatement, meRow, meValues } from "../me-statement";
import { verifyJwt as verify } from "./jwt";
import { iso, pool, send, serve } from "./serve";

/**
 * Ceiling for `GET /api/v1/auth/me`: the same work with no framework. One HS256 JWT check with
 * node:crypto (parse, HMAC-SHA256, timingSafeEqual, alg/exp/iss/aud), the app's /me statement
 * (a primary-key read with the organisation, its plan's features and limits; captured from the
 * app's query function, bench/me-statement.ts) named through a pg Pool of the app's size, the row
 * shaped like the app's user response, as JSON.
 */

const statement = await captureMeStatement();

type Text = string | null;
type MeRow = {
  [K in
    | "id"
    | "email"
    | "name"
    | "company"
    | "phone"
    | "country"
    | "language"
    | "role"
    | "status"
    | "plan_expires_at"
    | "trial_ends_at"
    | "referral_code"
    | "credits"
    | "wechat_openid"
    | "created_at"
    | "email_verified_at"]: Text;
} & {
  is_guest: boolean;
  entitlements: { plan: string; features: string[]; limits: unknown };
  org: unknown;
};

serve((req, res) => {
  if (req.method !== "GET" || req.url !== "/api/v1/auth/me") {
    send(res, 404, { detail: "Not found" });
    return;
  }
  const header = req.headers.authorization ?? "";
  const claims = header.startsWith("Bearer ") ? verify(header.slice(7).trim()) : null;
  if (!claims) {
    send(res, 401, { detail: "Invalid or expired token" });
    return;
  }
  // Named, as the app's /me statement is: both parse and plan once per connection.
  const values = meValues(statement, String(claims.sub), new Date().toISOString());
  pool
    .query<unknown[]>({ name: "ceiling_find_user", text: statement.text, values, rowMode: "array" })
    .then(
      ({ rows: [array] }) => {
        const row = array ? (meRow(statement, array) as MeRow) : undefined;
        if (row?.status !== "active") {
          send(res, 401, { detail: "Account is not active" });
          return;
        }
        const trialEnds = iso(row.trial_ends_at);
        send(res, 200, {
          id: row.id,
          email: row.email,
          name: row.name,
          company: row.company,
          phone: row.phone,
          country: row.country,
          language: row.language,
          role: row.role === "admin" ? "admin" : "user",
          status: row.status,
          is_guest: row.is_guest,
          plan: row.entitlements.plan,
          features: row.entitlements.features,
          limits: row.entitlements.limits,
          plan_expires_at: iso(row.plan_expires_at),
          trial_ends_at: trialEnds,
          is_trial_active: trialEnds !== null && new Date(trialEnds) > new Date(),
          referral_code: row.referral_code,
          credits: Number(row.credits ?? 0),
          has_wechat: row.wechat_openid !== null,
          created_at: iso(row.created_at),
          email_verified: row.email_verified_at !== null,
          org: row.org,
        });
      },
      () => send(res, 500, { detail: "Internal error" }),
    );
});

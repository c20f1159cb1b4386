import { createSecretKey } from "node:crypto";
import Fastify from "fastify";
import { jwtVerify } from "jose";
import pg from "pg";
import { captureListStatement, listValues } from "./list-statement";
import { captureMeStatement, meRow, meValues } from "./me-statement";

/**
 * The stack a user would pick instead of this app, for the worker-scaling section (issue #25
 * item 3): Fastify 5, node-postgres and jose, running the app's exact /me and list statements
 * (captured from its query functions, as the ceilings do, named as the app names them) through
 * a pg Pool of the app's size, and answering the app's JSON. What it leaves out is what a
 * minimal service leaves out: no request id, no security headers, no rate limit, no access log.
 */
const listPath = process.env.LIST_PATH ?? "";
const key = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? "", "utf8"));
const issuer = process.env.JWT_ISSUER || "trade-assistant";
const audience = process.env.JWT_AUDIENCE || "trade-assistant-api";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// As the app's driver is told by Drizzle: timestamps arrive as PostgreSQL text, not Dates.
for (const oid of [1114, 1184]) pg.types.setTypeParser(oid, (value: string) => value);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE || 10),
  idleTimeoutMillis: 30_000,
});
pool.on("error", () => {});

const [me, list] = await Promise.all([captureMeStatement(), captureListStatement(listPath)]);
const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

/** jose's HS256 check with the app's options; the user id, or null. */
async function userId(header: string | undefined): Promise<string | null> {
  if (!header?.startsWith("Bearer ")) return null;
  try {
    const { payload } = await jwtVerify(header.slice(7).trim(), key, {
      algorithms: ["HS256"],
      issuer,
      audience,
      requiredClaims: ["sub", "exp", "iat", "sid"],
    });
    return UUID.test(payload.sub ?? "") && UUID.test(String(payload.sid)) ? payload.sub! : null;
  } catch {
    return null;
  }
}

const app = Fastify({ logger: false });

app.get("/health", async () => ({ status: "ok" }));

app.get("/api/v1/auth/me", async (request, reply) => {
  const id = await userId(request.headers.authorization);
  if (!id) return reply.code(401).send({ detail: "Invalid or expired token" });
  const values = meValues(me, id, new Date().toISOString());
  const {
    rows: [array],
  } = await pool.query<unknown[]>({ name: "find_user", text: me.text, values, rowMode: "array" });
  const row = array ? meRow(me, array) : undefined;
  if (row?.status !== "active") return reply.code(401).send({ detail: "Account is not active" });
  const entitlements = row.entitlements as { plan: string; features: string[]; limits: unknown };
  const trialEnds = iso(row.trial_ends_at);
  return {
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
    plan: entitlements.plan,
    features: entitlements.features,
    limits: entitlements.limits,
    plan_expires_at: iso(row.plan_expires_at),
    trial_ends_at: trialEnds,
    is_trial_active: trialEnds !== null && new Date(trialEnds) > new Date(),
    referral_code: row.referral_code,
    credits: Number(row.credits ?? 0),
    has_wechat: row.wechat_openid !== null,
    created_at: iso(row.created_at),
    email_verified: row.email_verified_at !== null,
    org: row.org,
  };
});

type ListRow = Record<string, unknown> & { total_count: string | number };

// The statement is LIST_PATH's (its filters fixed at start), as the list ceiling's is.
app.get(listPath.split("?")[0]!, async (request, reply) => {
  const id = await userId(request.headers.authorization);
  if (!id) return reply.code(401).send({ detail: "Invalid or expired token" });
  const { rows } = await pool.query<ListRow>({
    name: "list_customers",
    text: list.text,
    values: listValues(list, id),
  });
  return {
    items: rows.map((r) => ({
      id: r.id,
      org_id: r.org_id,
      user_id: r.user_id,
      owner_name: r.owner_name,
      company: r.company,
      contact_name: r.contact_name,
      email: r.email,
      phone: r.phone,
      whatsapp: r.whatsapp,
      country: r.country,
      source: r.source,
      tags: r.tags ?? [],
      status: r.status,
      notes: r.notes,
      estimated_value: r.estimated_value === null ? null : Number(r.estimated_value),
      estimated_currency: r.estimated_currency,
      last_contact_at: iso(r.last_contact_at),
      next_followup_at: iso(r.next_followup_at),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    })),
    total: rows.length > 0 ? Number(rows[0]!.total_count) : 0,
    page: 1,
    size: list.size,
  };
});

await app.listen({ port: Number(process.env.PORT), host: "0.0.0.0" });
process.on("SIGTERM", () => {
  void app.close().then(
    () => pool.end().finally(() => process.exit(0)),
    () => process.exit(1),
  );
});

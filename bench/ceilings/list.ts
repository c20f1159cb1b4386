import pg from "pg";
import { captureListStatement, listValues } from "../list-statement";
import { verifyJwt } from "./jwt";
import { iso, pool, send, serve } from "./serve";

/**
 * Ceiling for the customer list (issue #13 item 1), built the way /me's is: a bare node:http
 * server doing the list's work with no framework. One HS256 check, then the app's exact list
 * statement (its text and parameters captured once from the app's own query builder, so any
 * change to the app's SQL changes the ceiling too) named through a pg Pool of the app's size,
 * and the page shaped like the app's response, as JSON. Serves LIST_PATH only.
 */
const listPath = process.env.LIST_PATH ?? "";
const listPathname = listPath.split("?")[0];
// As the app's driver is told by Drizzle: timestamps arrive as Postgres text, not Dates.
for (const oid of [1114, 1184]) pg.types.setTypeParser(oid, (value: string) => value);

const statement = await captureListStatement(listPath);

type Row = Record<string, unknown> & { total_count: string | number };

serve((req, res) => {
  // The statement is LIST_PATH's (its filters fixed at start); any query string is served by it.
  if (req.method !== "GET" || req.url?.split("?")[0] !== listPathname) {
    send(res, 404, { detail: "Not found" });
    return;
  }
  const header = req.headers.authorization ?? "";
  const claims = header.startsWith("Bearer ") ? verifyJwt(header.slice(7).trim()) : null;
  if (!claims) {
    send(res, 401, { detail: "Invalid or expired token" });
    return;
  }
  const values = listValues(statement, String(claims.sub));
  pool.query<Row>({ name: "ceiling_list", text: statement.text, values }).then(
    ({ rows }) => {
      send(res, 200, {
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
          last_contact_at: iso(r.last_contact_at as string | null),
          next_followup_at: iso(r.next_followup_at as string | null),
          created_at: iso(r.created_at as string),
          updated_at: iso(r.updated_at as string),
        })),
        total: rows.length > 0 ? Number(rows[0]!.total_count) : 0,
        page: 1,
        size: statement.size,
      });
    },
    () => send(res, 500, { detail: "Internal error" }),
  );
});

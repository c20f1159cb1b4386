import { createRoute } from "@hono/zod-openapi";
import { reportRange } from "../../http/date-range";
import { ErrorSchema, errorResponse } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  adminGuard as guard,
  IdParam,
  okResponse as ok,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { listAuditLog } from "./audit";
import {
  AdminOrgListQuery,
  AdminOrgPage,
  AdminStatsQuery,
  AdminStatsSchema,
  AdminUserListQuery,
  AdminUserPage,
  AdminUserPatch,
  AdminUserSchema,
  AuditLogPage,
  AuditLogQuery,
  ConfigEntryList,
  ConfigEntrySchema,
  ConfigKeyParam,
  ConfigPutBody,
  UsageLogPage,
  UsageLogQuery,
} from "./schemas";
import {
  getSystemConfig,
  getUser,
  listOrgs,
  listSystemConfig,
  listUsageLogs,
  listUsers,
  patchUser,
  putSystemConfig,
} from "./service";
import { adminStats } from "./stats";
import { actorOf } from "./writes";

const tags = ["Admin"];

const adminStatsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/stats",
  tags,
  security,
  summary: "Users, revenue, credits and AI calls per UTC day (default the last 30 days)",
  middleware: [...guard],
  request: {
    query: AdminStatsQuery,
  },
  responses: { ...ok(AdminStatsSchema, "Dashboard figures"), ...adminErrors },
});

const listUsersRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/users",
  tags,
  security,
  summary: "Users, newest first, with search and filters",
  middleware: [...guard],
  request: { query: AdminUserListQuery },
  responses: { ...ok(AdminUserPage, "A page of users"), ...adminErrors },
});

const getUserRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/users/{id}",
  tags,
  security,
  summary: "One user",
  middleware: [...guard],
  request: { params: IdParam },
  responses: {
    ...ok(AdminUserSchema, "The user"),
    404: errorResponse(ErrorSchema, "No such user"),
    ...adminErrors,
  },
});

const patchUserRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/users/{id}",
  tags,
  security,
  summary: "Change role, plan or status (disabling signs the user out everywhere)",
  description:
    "The last active admin is kept: demoting or disabling it (oneself included) is a 409, " +
    "decided in the statement that writes, so two admins demoting each other at once leave one.",
  middleware: [...writeGuard],
  request: {
    params: IdParam,
    body: { required: true, content: { "application/json": { schema: AdminUserPatch } } },
  },
  responses: {
    ...ok(AdminUserSchema, "The updated user"),
    404: errorResponse(ErrorSchema, "No such user"),
    409: errorResponse(ErrorSchema, "It is the last active admin"),
    ...adminErrors,
  },
});

const listOrgsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/orgs",
  tags,
  security,
  summary: "Organisations, newest first: plan in effect, seats, members, owner and balance",
  middleware: [...guard],
  request: { query: AdminOrgListQuery },
  responses: { ...ok(AdminOrgPage, "A page of organisations"), ...adminErrors },
});

const usageLogsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/usage-logs",
  tags,
  security,
  summary: "Usage log rows, newest first, filtered by user, event and UTC dates",
  middleware: [...guard],
  request: { query: UsageLogQuery },
  responses: { ...ok(UsageLogPage, "A page of usage logs"), ...adminErrors },
});

const auditLogRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/audit-log",
  tags,
  security,
  summary: "Admin writes, newest first: actor, action, target, changed fields, request id",
  description:
    "Every write under /api/v1/admin (and `npm run admin:grant`) leaves one row, written in " +
    "the same statement as the change. Filters combine; dates are UTC days.",
  middleware: [...guard],
  request: { query: AuditLogQuery },
  responses: { ...ok(AuditLogPage, "A page of audit rows"), ...adminErrors },
});

const listConfigRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/system-config",
  tags,
  security,
  summary: "Every system config entry",
  middleware: [...guard],
  responses: {
    ...ok(ConfigEntryList, "All entries"),
    ...adminErrors,
  },
});

const getConfigRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/system-config/{key}",
  tags,
  security,
  summary: "One system config entry",
  middleware: [...guard],
  request: { params: ConfigKeyParam },
  responses: {
    ...ok(ConfigEntrySchema, "The entry"),
    404: errorResponse(ErrorSchema, "Unknown key"),
    ...adminErrors,
  },
});

const putConfigRoute = createRoute({
  method: "put",
  path: "/api/v1/admin/system-config/{key}",
  tags,
  security,
  summary: "Replace one system config value (validated against the key's schema)",
  middleware: [...writeGuard],
  request: {
    params: ConfigKeyParam,
    body: { required: true, content: { "application/json": { schema: ConfigPutBody } } },
  },
  responses: {
    ...ok(ConfigEntrySchema, "The stored entry"),
    404: errorResponse(ErrorSchema, "Unknown key"),
    ...adminErrors,
  },
});

export function createAdminRoutes() {
  const router = createRouter();
  router.openapi(adminStatsRoute, async (c) => {
    const deps = c.get("deps");
    return c.json(await adminStats(deps, reportRange(c.req.valid("query"), deps.clock.now())), 200);
  });
  router.openapi(listUsersRoute, async (c) =>
    c.json(await listUsers(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(getUserRoute, async (c) =>
    c.json(await getUser(c.get("deps"), c.req.valid("param").id), 200),
  );
  router.openapi(patchUserRoute, async (c) =>
    c.json(
      await patchUser(c.get("deps"), actorOf(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(listOrgsRoute, async (c) =>
    c.json(await listOrgs(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(usageLogsRoute, async (c) =>
    c.json(await listUsageLogs(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(auditLogRoute, async (c) =>
    c.json(await listAuditLog(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(listConfigRoute, async (c) =>
    c.json({ items: await listSystemConfig(c.get("deps")) }, 200),
  );
  router.openapi(getConfigRoute, async (c) =>
    c.json(await getSystemConfig(c.get("deps"), c.req.valid("param").key), 200),
  );
  router.openapi(putConfigRoute, async (c) => {
    const { key } = c.req.valid("param");
    const entry = await putSystemConfig(c.get("deps"), actorOf(c), key, c.req.valid("json").value);
    return c.json(entry, 200);
  });
  return router;
}

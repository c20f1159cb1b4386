import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authErrorResponses, csrfErrorResponses } from "../../http/errors";
import { okResponse as ok, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import {
  MarkNotificationsBody,
  MarkResultSchema,
  NotificationsPage,
  NotificationsQuery,
} from "./schemas";
import { listNotifications, markAllRead, markNotifications } from "./service";

const tags = ["Notifications"];
// API.md marks these B only; a browser session riding on cookies still needs the CSRF token,
// which requireAuth checks on every write (docs/adr/0058-one-csrf-rule-for-every-write.md).
const writeGuard = [requireAuth];

const listNotificationsRoute = createRoute({
  method: "get",
  path: "/api/v1/notifications",
  tags,
  security,
  summary: "The caller's notifications, newest first, with the unread count",
  middleware: [requireAuth] as const,
  request: { query: NotificationsQuery },
  responses: { ...ok(NotificationsPage, "A page of notifications"), ...authErrorResponses },
});

const markNotificationsRoute = createRoute({
  method: "patch",
  path: "/api/v1/notifications",
  tags,
  security,
  summary: "Mark some of the caller's notifications read or unread (others' ids are ignored)",
  middleware: [...writeGuard],
  request: {
    body: { required: true, content: { "application/json": { schema: MarkNotificationsBody } } },
  },
  responses: { ...ok(MarkResultSchema, "Marked"), ...csrfErrorResponses },
});

const readAllRoute = createRoute({
  method: "post",
  path: "/api/v1/notifications/read-all",
  tags,
  security,
  summary: "Mark every notification of the caller read",
  middleware: [...writeGuard],
  responses: { ...ok(MarkResultSchema, "Marked"), ...csrfErrorResponses },
});

export function createNotificationRoutes() {
  const router = createRouter();
  router.openapi(listNotificationsRoute, async (c) => {
    const query = c.req.valid("query");
    return c.json(
      await listNotifications(c.get("deps"), { ...query, userId: c.get("auth").userId }),
      200,
    );
  });
  router.openapi(markNotificationsRoute, async (c) => {
    const body = c.req.valid("json");
    return c.json(
      await markNotifications(c.get("deps"), {
        userId: c.get("auth").userId,
        ids: [...new Set(body.ids)],
        isRead: body.is_read,
      }),
      200,
    );
  });
  router.openapi(readAllRoute, async (c) =>
    c.json(await markAllRead(c.get("deps"), c.get("auth").userId), 200),
  );
  return router;
}

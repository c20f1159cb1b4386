import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import { csrfErrorResponses, unauthorized } from "../../http/errors";
import { createRouter } from "../../http/router";
import { ProfilePatchBody } from "../auth/schemas";
import { UpdatedUserSchema } from "./schemas";
import { toUserResponse, updateProfile } from "./service";

const patchMeRoute = createRoute({
  method: "patch",
  path: "/api/v1/users/me",
  tags: ["Accounts"],
  summary: "Update profile fields (send null to clear one)",
  security: csrfSecurity,
  middleware: [requireAuth, requireCsrf] as const,
  request: {
    body: { required: true, content: { "application/json": { schema: ProfilePatchBody } } },
  },
  responses: {
    200: {
      description: "Updated user",
      content: { "application/json": { schema: UpdatedUserSchema } },
    },
    ...csrfErrorResponses,
  },
});

export function createUserRoutes() {
  const router = createRouter();
  router.openapi(patchMeRoute, async (c) => {
    const row = await updateProfile(c.get("deps"), c.get("auth").userId, c.req.valid("json"));
    if (!row) throw unauthorized("Account is not active");
    return c.json(toUserResponse(c.get("deps"), row), 200);
  });
  return router;
}

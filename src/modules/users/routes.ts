import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import {
  csrfErrorResponses,
  issueLocation,
  unauthorized,
  validationError,
  zodIssues,
} from "../../http/errors";
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

/** Account fields a profile PATCH does not change, and where they do change (ADR 0089). */
const ELSEWHERE: Record<string, string> = {
  email:
    "The e-mail address changes through POST /api/v1/auth/email ({new_email, password}); it takes effect once verified",
  password: "The password changes through POST /api/v1/auth/password",
};

export function createUserRoutes() {
  const router = createRouter();
  router.openapi(
    patchMeRoute,
    async (c) => {
      const row = await updateProfile(c.get("deps"), c.get("auth").userId, c.req.valid("json"));
      if (!row) throw unauthorized("Account is not active");
      return c.json(toUserResponse(c.get("deps"), row), 200);
    },
    (result) => {
      if (result.success) return;
      const issues = zodIssues(result.target, result.error);
      const moved = result.error.issues.flatMap((issue) =>
        issue.code === "unrecognized_keys"
          ? issue.keys.filter((key) => Object.hasOwn(ELSEWHERE, key))
          : [],
      );
      if (moved.length === 0) throw validationError(issues);
      const pointers = moved.map((key) => ({
        loc: [issueLocation(result.target), key],
        msg: ELSEWHERE[key]!,
        type: "unrecognized_keys",
      }));
      throw validationError([...pointers, ...issues], pointers[0]!.msg);
    },
  );
  return router;
}

import type { AppRouter } from "../http/router";
import { createAccountRoutes } from "../modules/account/routes";
import { createAuthRoutes } from "../modules/auth/routes";
import { createOrgRoutes } from "../modules/orgs/routes";
import { createUsageRoutes } from "../modules/usage/routes";
import { createAccountDataRoutes } from "../modules/users/account-data-routes";
import { createUserRoutes } from "../modules/users/routes";

/**
 * Route group `auth`: accounts: register, login, tokens, verification, profile, usage, and the
 * caller's organisation (members, invitations, ownership: API.md puts it in functions/auth.ts).
 */
export const authRoutes = (): AppRouter[] => [
  createAuthRoutes(),
  createAccountRoutes(),
  createUserRoutes(),
  createAccountDataRoutes(),
  createUsageRoutes(),
  createOrgRoutes(),
];

import type { AppRouter } from "../http/router";
import { createAccountRoutes } from "../modules/account/routes";
import { createAuthRoutes } from "../modules/auth/routes";
import { createUsageRoutes } from "../modules/usage/routes";
import { createUserRoutes } from "../modules/users/routes";

/** Route group `auth`: accounts: register, login, tokens, verification, profile, usage. */
export const authRoutes = (): AppRouter[] => [
  createAuthRoutes(),
  createAccountRoutes(),
  createUserRoutes(),
  createUsageRoutes(),
];

import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/env";
import { forbidden } from "../../http/errors";
import { getRole } from "./queries";

/**
 * Billing is the owner's (API.md, Company workspaces): an order changes the organisation's plan
 * or fills its wallet and a cancel ends its plan, so only the owner places or cancels one. Read from the database, as every role is
 * (a role change holds from the next request, whatever the token says).
 */
export const requireOrgOwner: MiddlewareHandler<AppEnv> = async function requireOrgOwner(c, next) {
  const deps = c.get("deps");
  const role = await getRole(deps.db, { userId: c.get("auth").userId });
  if (role !== "owner") {
    throw forbidden(
      "Billing is the organisation owner's: only they pay for or cancel its plan and credits",
      "forbidden",
    );
  }
  await next();
};

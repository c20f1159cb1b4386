import type { Deps } from "../../ports";

/**
 * A link into the web app users open (mails, the referral link): FRONTEND_URL, else
 * PUBLIC_BASE_URL, else `http://localhost:PORT` (the embedded default). `path` starts with `/`
 * and may carry a query; a path prefix in the base is kept.
 */
export function frontendUrl(deps: Pick<Deps, "config">, path: string): string {
  const { FRONTEND_URL, PUBLIC_BASE_URL, PORT } = deps.config;
  const base = FRONTEND_URL || PUBLIC_BASE_URL || `http://localhost:${PORT}`;
  return `${base.replace(/\/+$/, "")}${path}`;
}

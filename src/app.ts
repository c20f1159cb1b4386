import { type App, type AppOptions, buildApp } from "./app-core";
import { ALL_GROUPS, type RouteGroup, routersOf } from "./groups";
import { linkPagesServed, mountLinkPages } from "./modules/link-pages/routes";
import type { Deps } from "./ports";

export type { App, AppOptions } from "./app-core";
export { OPENAPI_PATH } from "./app-core";
export { ROUTE_GROUPS, type RouteGroup } from "./groups";

/**
 * The app with the named route groups (all by default): the Node server and the tests. A
 * Worker builds its own group only (src/runtime/worker.ts), so its bundle carries nothing else.
 * Without FRONTEND_URL the links' built-in pages are served too (Node only: a Worker runs in
 * production, which requires FRONTEND_URL; ADR 0092).
 */
export function createApp(
  deps: Deps,
  groups: readonly RouteGroup[] = ALL_GROUPS,
  options: AppOptions = {},
): App {
  const app = buildApp(deps, routersOf(groups), options);
  if (linkPagesServed(deps.config)) mountLinkPages(app);
  return app;
}

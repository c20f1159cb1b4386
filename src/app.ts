import { type App, type AppOptions, buildApp } from "./app-core";
import { ALL_GROUPS, type RouteGroup, routersOf } from "./groups";
import type { Deps } from "./ports";

export type { App, AppOptions } from "./app-core";
export { OPENAPI_PATH } from "./app-core";
export { ROUTE_GROUPS, type RouteGroup } from "./groups";

/**
 * The app with the named route groups (all by default): the Node server and the tests. A
 * Worker builds its own group only (src/runtime/worker.ts), so its bundle carries nothing else.
 */
export function createApp(
  deps: Deps,
  groups: readonly RouteGroup[] = ALL_GROUPS,
  options: AppOptions = {},
): App {
  return buildApp(deps, routersOf(groups), options);
}

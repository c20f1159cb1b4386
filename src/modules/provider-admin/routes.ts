import { createRoute, type z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponse } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  jsonBody as body,
  adminGuard as guard,
  IdParam,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import type { AppRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import type { createProviderAdmin } from "./service";

/** What one provider admin's routes need besides their service (see providerAdminRoutes). */
export interface ProviderAdminRoutesSpec<
  Body extends z.ZodType,
  Patch extends z.ZodType,
  Schema extends z.ZodType,
  Page extends z.ZodType,
  ListQuery extends z.ZodObject,
> {
  /** Literal paths, so grepping a URL finds them: the collection and `{id}` under it. */
  paths: { list: string; item: string };
  tags: string[];
  summaries: { list: string; create: string; get: string; update: string; delete: string };
  listDescription?: string;
  schemas: { Body: Body; Patch: Patch; Schema: Schema; Page: Page; ListQuery: ListQuery };
  // biome-ignore lint/suspicious/noExplicitAny: each admin's own input and row types
  admin: ReturnType<typeof createProviderAdmin<any, any, any, any>>;
}

/**
 * The validated request, typed by each admin's service rather than through the generic schemas
 * (which TypeScript cannot follow through createRoute): the schemas validate it at runtime.
 */
interface Validated {
  valid(target: "param"): { id: string };
  valid(target: "query" | "json"): never;
}
const valid = (c: { req: unknown }) => c.req as Validated;

/**
 * The five routes of a provider admin (list, create, get, update, delete), registered on
 * `router` in that order: the same paths, operation ids and schemas as each admin had alone.
 */
export function providerAdminRoutes<
  Body extends z.ZodType,
  Patch extends z.ZodType,
  Schema extends z.ZodType,
  Page extends z.ZodType,
  ListQuery extends z.ZodObject,
>(router: AppRouter, spec: ProviderAdminRoutesSpec<Body, Patch, Schema, Page, ListQuery>) {
  const { paths, tags, summaries, schemas, admin } = spec;
  const nameTaken = { 409: errorResponse(ErrorSchema, "Name already used") };

  const listRoute = createRoute({
    method: "get",
    path: paths.list,
    tags,
    security,
    summary: summaries.list,
    ...(spec.listDescription ? { description: spec.listDescription } : {}),
    middleware: [...guard],
    request: { query: schemas.ListQuery },
    responses: { 200: json(schemas.Page, "A page of providers"), ...adminErrors },
  });

  const createProviderRoute = createRoute({
    method: "post",
    path: paths.list,
    tags,
    security,
    summary: summaries.create,
    middleware: [...writeGuard],
    request: { body: body(schemas.Body) },
    responses: { 201: json(schemas.Schema, "Created"), ...nameTaken, ...adminErrors },
  });

  const getRoute = createRoute({
    method: "get",
    path: paths.item,
    tags,
    security,
    summary: summaries.get,
    middleware: [...guard],
    request: { params: IdParam },
    responses: {
      200: json(schemas.Schema, "The provider"),
      ...notFoundResponse(),
      ...adminErrors,
    },
  });

  const updateRoute = createRoute({
    method: "patch",
    path: paths.item,
    tags,
    security,
    summary: summaries.update,
    description:
      "A new `base_url` must be public or listed in OUTBOUND_ALLOW_HOSTS (https in production), " +
      "and needs `api_key` in the same request when a key is stored (422 otherwise), so a stored " +
      "key is never sent to a host it was not entered for.",
    middleware: [...writeGuard],
    request: { params: IdParam, body: body(schemas.Patch) },
    responses: {
      200: json(schemas.Schema, "Updated"),
      ...nameTaken,
      ...notFoundResponse(),
      ...adminErrors,
    },
  });

  const deleteRoute = createRoute({
    method: "delete",
    path: paths.item,
    tags,
    security,
    summary: summaries.delete,
    middleware: [...writeGuard],
    request: { params: IdParam },
    responses: { 204: { description: "Deleted" }, ...notFoundResponse(), ...adminErrors },
  });

  router.openapi(listRoute, async (c) =>
    c.json(await admin.list(c.get("deps"), valid(c).valid("query")), 200),
  );
  router.openapi(createProviderRoute, async (c) =>
    c.json(await admin.create(c.get("deps"), actorOf(c), valid(c).valid("json")), 201),
  );
  router.openapi(getRoute, async (c) =>
    c.json(await admin.get(c.get("deps"), valid(c).valid("param").id), 200),
  );
  router.openapi(updateRoute, async (c) =>
    c.json(
      await admin.update(
        c.get("deps"),
        actorOf(c),
        valid(c).valid("param").id,
        valid(c).valid("json"),
      ),
      200,
    ),
  );
  router.openapi(deleteRoute, async (c) => {
    await admin.remove(c.get("deps"), actorOf(c), valid(c).valid("param").id);
    return c.body(null, 204);
  });
}

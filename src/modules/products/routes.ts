import { createRoute, type z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
} from "../../http/errors";
import { IdParam, notFoundResponse, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { ProductBody, ProductPatch, ProductSchema, ProductsPage, ProductsQuery } from "./schemas";
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from "./service";

const tags = ["Products"];
// API.md marks these B only; a browser session riding on cookies still needs the CSRF token,
// which requireAuth checks on every write (docs/decisions.md, CSRF).
const writeGuard = [requireAuth];
const noSuchProduct = notFoundResponse("No such product in the caller's organisation");
// The catalogue is the organisation's: every member reads it, manager and above change it.
const keepersOnly = {
  403: errorResponse(
    ErrorSchema,
    "Missing or invalid CSRF token, or the caller is a member (only a manager, an admin or the owner changes the catalogue)",
  ),
};
const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

const listProductsRoute = createRoute({
  method: "get",
  path: "/api/v1/products",
  tags,
  security,
  summary: "The organisation's product catalogue (q: name or SKU contains; category; sort)",
  middleware: [requireAuth] as const,
  request: { query: ProductsQuery },
  responses: {
    200: {
      description: "A page of products",
      content: { "application/json": { schema: ProductsPage } },
    },
    ...authErrorResponses,
  },
});

const createProductRoute = createRoute({
  method: "post",
  path: "/api/v1/products",
  tags,
  security,
  summary: "Add a product (manager+; price in minor units; SKU unique in the organisation)",
  middleware: [...writeGuard],
  request: jsonBody(ProductBody),
  responses: {
    201: { description: "Created", content: { "application/json": { schema: ProductSchema } } },
    409: errorResponse(ErrorSchema, "SKU already used"),
    ...csrfErrorResponses,
    ...keepersOnly,
  },
});

const getProductRoute = createRoute({
  method: "get",
  path: "/api/v1/products/{id}",
  tags,
  security,
  summary: "One product",
  middleware: [requireAuth] as const,
  request: { params: IdParam },
  responses: {
    200: { description: "The product", content: { "application/json": { schema: ProductSchema } } },
    ...noSuchProduct,
    ...authErrorResponses,
  },
});

const updateProductRoute = createRoute({
  method: "patch",
  path: "/api/v1/products/{id}",
  tags,
  security,
  summary: "Change a product (manager+)",
  middleware: [...writeGuard],
  request: { params: IdParam, ...jsonBody(ProductPatch) },
  responses: {
    200: { description: "The product", content: { "application/json": { schema: ProductSchema } } },
    409: errorResponse(ErrorSchema, "SKU already used"),
    ...noSuchProduct,
    ...csrfErrorResponses,
    ...keepersOnly,
  },
});

const deleteProductRoute = createRoute({
  method: "delete",
  path: "/api/v1/products/{id}",
  tags,
  security,
  summary: "Delete a product (manager+; quotations keep their copy of its name and price)",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted" },
    ...noSuchProduct,
    ...csrfErrorResponses,
    ...keepersOnly,
  },
});

export function createProductRoutes() {
  const router = createRouter();
  router.openapi(listProductsRoute, async (c) =>
    c.json(await listProducts(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
  );
  router.openapi(createProductRoute, async (c) =>
    c.json(await createProduct(c.get("deps"), c.get("auth").userId, c.req.valid("json")), 201),
  );
  router.openapi(getProductRoute, async (c) =>
    c.json(await getProduct(c.get("deps"), c.get("auth").userId, c.req.valid("param").id), 200),
  );
  router.openapi(updateProductRoute, async (c) =>
    c.json(
      await updateProduct(
        c.get("deps"),
        c.get("auth").userId,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
  );
  router.openapi(deleteProductRoute, async (c) => {
    await deleteProduct(c.get("deps"), c.get("auth").userId, c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}

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
const noSuchProduct = notFoundResponse("No such product of the caller");
const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

const listProductsRoute = createRoute({
  method: "get",
  path: "/api/v1/products",
  tags,
  security,
  summary: "The caller's products (q: name or SKU contains; category; sort)",
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
  summary: "Add a product (price in minor units; SKU unique per seller)",
  middleware: [...writeGuard],
  request: jsonBody(ProductBody),
  responses: {
    201: { description: "Created", content: { "application/json": { schema: ProductSchema } } },
    409: errorResponse(ErrorSchema, "SKU already used"),
    ...csrfErrorResponses,
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
  summary: "Change a product",
  middleware: [...writeGuard],
  request: { params: IdParam, ...jsonBody(ProductPatch) },
  responses: {
    200: { description: "The product", content: { "application/json": { schema: ProductSchema } } },
    409: errorResponse(ErrorSchema, "SKU already used"),
    ...noSuchProduct,
    ...csrfErrorResponses,
  },
});

const deleteProductRoute = createRoute({
  method: "delete",
  path: "/api/v1/products/{id}",
  tags,
  security,
  summary: "Delete a product (quotations keep their copy of its name and price)",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted" },
    ...noSuchProduct,
    ...csrfErrorResponses,
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

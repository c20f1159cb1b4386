/**
 * The flow a frontend writes first, against the generated types and nothing else: register,
 * add a customer, import products from a sheet, quote them to the customer, translate, start an
 * agent run, buy credits; leaving out every field the server defaults. It is
 * type-checked, not run (`tsc --noEmit -p tools/openapi-client`): a route whose contract
 * changes under a client fails here, without casts to hide it.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Problem = components["schemas"]["Error"] | components["schemas"]["ValidationError"];

function fail(step: string, error: Problem | undefined): never {
  throw new Error(`${step}: ${error?.detail ?? "no answer"}`);
}

export async function sellerFlow(baseUrl: string, sheet: Blob) {
  const client = createClient<paths>({ baseUrl });

  const registered = await client.POST("/api/v1/auth/register", {
    body: { email: "seller@example.com", password: "correct horse battery", name: "Seller" },
  });
  if (!registered.data) fail("register", registered.error);
  const session = registered.data;
  const auth = {
    Authorization: `Bearer ${session.access_token}`,
    "X-CSRF-Token": session.csrf_token,
  };

  const customer = await client.POST("/api/v1/customers", {
    headers: auth,
    body: { company: "Acme Imports", email: "buyer@acme.example", country: "DE" },
  });
  if (!customer.data) fail("customer", customer.error);

  // Uploads are Blobs; openapi-fetch sends multipart bodies through a FormData serializer.
  const imported = await client.POST("/api/v1/products/import", {
    headers: auth,
    params: { query: { dry_run: "false" } },
    body: { file: sheet },
    bodySerializer(body) {
      const form = new FormData();
      form.append("file", body.file);
      return form;
    },
  });
  if (!imported.data) fail("import", imported.error);
  // 200 is JSON, or the error sheet when errors_file is asked for: the JSON one is expected.
  if (!("created" in imported.data)) throw new Error("import: expected the JSON result");
  if (imported.data.created === 0) throw new Error("import: nothing created");

  // Fields the server defaults are optional to send (issue 21: openapi-typescript made them
  // required): a product without unit or currency, a customer list without page or size.
  const widget = await client.POST("/api/v1/products", {
    headers: auth,
    body: { name: "Widget", price: 1250 },
  });
  if (!widget.data) fail("product", widget.error);
  const customers = await client.GET("/api/v1/customers", { headers: auth });
  if (!customers.data) fail("customers", customers.error);

  const products = await client.GET("/api/v1/products", {
    headers: auth,
    params: { query: { page: 1 } },
  });
  if (!products.data) fail("products", products.error);
  const first = products.data.items[0];
  if (!first) throw new Error("import: no product");

  const quotation = await client.POST("/api/v1/quotations", {
    headers: auth,
    body: {
      customer_id: customer.data.id,
      currency: "USD",
      items: [{ product_id: first.id, quantity: 100 }],
    },
  });
  if (!quotation.data) fail("quotation", quotation.error);

  // Without with_replies (default false), and an agent run without max_leads.
  const translated = await client.POST("/api/v1/translate", {
    headers: auth,
    body: { text: "Bonjour", target_lang: "zh" },
  });
  if (!translated.data) fail("translate", translated.error);
  const run = await client.POST("/api/v1/agent/start", {
    headers: auth,
    body: { product: "LED lamps", market: "DE" },
  });
  if (!run.data) fail("agent", run.error);

  const packages = await client.GET("/api/v1/credits/packages");
  if (!packages.data) fail("packages", packages.error);
  const pack = packages.data.items[0];
  if (!pack) throw new Error("packages: none on sale");

  const order = await client.POST("/api/v1/credits/purchase", {
    headers: auth,
    body: { package_id: pack.id, pay_type: "alipay" },
  });
  if (!order.data) {
    // 402 and 409 carry their own fields: a client can read them without a cast.
    fail("purchase", order.error);
  }
  return {
    quotationId: quotation.data.id,
    payUrl: order.data.pay_url,
    orderNo: order.data.order_no,
  };
}

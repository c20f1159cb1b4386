import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPgliteDatabase } from "../../src/runtime/node/database";
import { randomEmail } from "../support/client";
import { startNodeServer } from "../support/node-server";

const dataDir = await mkdtemp(join(tmpdir(), "ta-e2e-pay-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

// On an empty DATA_DIR the server runs initdb and every migration before it listens: ~8 s on
// an idle machine, 20-30 s under a parallel run, all inside startNodeServer's 30 s readiness
// window and this test's 30 s timeout (the flake). Starting from an empty directory is
// node-server.test.ts's subject; here the directory holds the migrated image (pglite-image.ts)
// and the server's start-up migrates (nothing left) and seeds it as on any restart.
beforeAll(async () => {
  const image = new Blob([await readFile(inject("pgliteTemplate"))]);
  const database = await openPgliteDatabase(join(dataDir, "pglite"), { loadDataDir: image });
  await database.close();
});

describe("purchase flow on the embedded defaults (sandbox gateway)", () => {
  it("registers, buys a package, pays on the sandbox page and sees the credits", async () => {
    const server = await startNodeServer({ DATA_DIR: dataDir });
    try {
      const url = server.url;
      const registered = await fetch(`${url}/api/v1/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: randomEmail(), password: "secret1" }),
      });
      expect(registered.status).toBe(201);
      const { access_token: token } = (await registered.json()) as { access_token: string };
      const auth = { Authorization: `Bearer ${token}` };

      const csrfRes = await fetch(`${url}/api/v1/auth/csrf`, { headers: auth });
      expect(csrfRes.status).toBe(200);
      const { csrf_token: csrf } = (await csrfRes.json()) as { csrf_token: string };

      const packages = (await (await fetch(`${url}/api/v1/credits/packages`)).json()) as {
        items: { id: string; credits: number; price: number }[];
      };
      const pkg = packages.items.find((p) => p.credits === 500)!;
      expect(pkg).toBeDefined();

      const bought = await fetch(`${url}/api/v1/credits/purchase`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ package_id: pkg.id, pay_type: "alipay" }),
      });
      expect(bought.status).toBe(201);
      const order = (await bought.json()) as { order_no: string; pay_url: string; amount: number };
      expect(order.amount).toBe(pkg.price);
      // Without PUBLIC_BASE_URL the links name localhost, never the request's Host header.
      const payPath = `/api/v1/payments/sandbox/${order.order_no}`;
      expect(order.pay_url).toBe(`http://localhost:${new URL(url).port}${payPath}`);

      const page = await fetch(`${url}${payPath}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await page.text();
      const action = /<form method="post" action="([^"]+\/pay)">/.exec(html)?.[1];
      expect(action).toBe(`/api/v1/payments/sandbox/${order.order_no}/pay`);

      const paid = await fetch(new URL(action!, url), { method: "POST", redirect: "manual" });
      expect(paid.status).toBe(303);
      expect(paid.headers.get("location")).toBe(`/api/v1/payments/sandbox/${order.order_no}`);

      const balance = await fetch(`${url}/api/v1/credits/balance`, { headers: auth });
      expect(((await balance.json()) as { balance: number }).balance).toBe(30 + pkg.credits);
      const status = await fetch(`${url}/api/v1/payments/orders/${order.order_no}`, {
        headers: auth,
      });
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ status: "paid", paid_late: false });
      // The page pay_url names, asked on 127.0.0.1 where the server listens: `localhost` may
      // resolve to ::1 first, and a loaded event loop can time the IPv4 attempt out.
      const after = await (await fetch(`${url}${payPath}`)).text();
      expect(after).toContain('<dd id="status">paid</dd>');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

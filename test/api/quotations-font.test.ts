import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FontUnavailableError,
  fetchedCjkFont,
  MAX_FONT_BYTES,
  provideCjkFont,
} from "../../src/modules/quotations/pdf-font";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// The Workers source of the PDF font: PDF_FONT_URL fetched once per isolate. A font server on
// 127.0.0.1 stands in for the bucket; its answer is switched per test.
const ctx = await createTestContext();
const { app } = ctx;
const font = await nodeCjkFont();

type Answer = "font" | "html" | "missing" | "huge-declared" | "huge-streamed";
let answer: Answer = "font";
let requests = 0;
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    if (answer === "missing") {
      res.writeHead(404).end("not found");
    } else if (answer === "html") {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>error page</html>");
    } else if (answer === "huge-declared") {
      res.writeHead(200, { "content-length": String(MAX_FONT_BYTES + 1) });
      res.end(); // the client must refuse on the header alone
    } else if (answer === "huge-streamed") {
      // No Content-Length: chunked, past the cap; the client must stop reading.
      res.writeHead(200, { "content-type": "font/ttf" });
      const chunk = Buffer.alloc(1024 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_FONT_BYTES / chunk.length + 2) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => {});
      pump();
    } else {
      res.writeHead(200, { "content-type": "font/ttf", "content-length": String(font.length) });
      res.end(font);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  provideCjkFont(undefined);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function quotation() {
  const user = await registerUser(app);
  const res = await call(app, "/api/v1/quotations", {
    token: user.accessToken,
    json: { currency: "USD", items: [{ name: "不锈钢保温杯", quantity: 2, unit_price: 1299 }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { user, id: res.body.id as string };
}

const exportPdf = (token: string, id: string) =>
  app.request(`/api/v1/quotations/${id}/export?format=pdf`, {
    headers: { Authorization: `Bearer ${token}` },
  });

describe("PDF font fetched from PDF_FONT_URL (the Workers source)", () => {
  it("embeds the fetched font, fetching it once for many exports", async () => {
    answer = "font";
    provideCjkFont(fetchedCjkFont(`${base}/NotoSansSC.ttf`));
    const before = requests;
    const { user, id } = await quotation();
    for (let i = 0; i < 3; i++) {
      const res = await exportPdf(user.accessToken, id);
      expect(res.status).toBe(200);
      const text = new TextDecoder("latin1").decode(new Uint8Array(await res.arrayBuffer()));
      expect(text).toMatch(/\/FontFile2/);
      expect(text).toMatch(/NotoSansSC/);
    }
    expect(requests - before).toBe(1);
  });

  it("answers 503 while the font cannot be had, and recovers once it can", async () => {
    answer = "html";
    provideCjkFont(fetchedCjkFont(`${base}/NotoSansSC.ttf`));
    const { user, id } = await quotation();
    const refused = await call(app, `/api/v1/quotations/${id}/export?format=pdf`, {
      token: user.accessToken,
    });
    expect(refused.status).toBe(503);
    expect(refused.body.detail).toBe("The PDF font could not be loaded; try again shortly");

    answer = "missing";
    expect((await exportPdf(user.accessToken, id)).status).toBe(503);

    // A failure is not cached: the next export fetches again and succeeds.
    answer = "font";
    expect((await exportPdf(user.accessToken, id)).status).toBe(200);
  });

  it("refuses a font past the size cap, declared or streamed, and non-font bytes", async () => {
    answer = "huge-declared";
    await expect(fetchedCjkFont(`${base}/f.ttf`)()).rejects.toThrow(FontUnavailableError);
    answer = "huge-streamed";
    await expect(fetchedCjkFont(`${base}/f.ttf`)()).rejects.toThrow("too large");
    answer = "html";
    await expect(fetchedCjkFont(`${base}/f.ttf`)()).rejects.toThrow("not a TrueType");
    answer = "font";
    const bytes = await fetchedCjkFont(`${base}/f.ttf`)();
    expect(bytes.byteLength).toBe(font.byteLength);
  });
});

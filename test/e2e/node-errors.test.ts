import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startNodeServer } from "../support/node-server";

const dataDir = await mkdtemp(join(tmpdir(), "ta-e2e-errors-"));
// A small body limit, so the 413 cases below send little.
const server = await startNodeServer({ DATA_DIR: dataDir, BODY_LIMIT_BYTES: "4096" });
afterAll(async () => {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});
const { hostname, port } = new URL(server.url);

/** Writes raw bytes on a fresh TCP connection and reads until the server closes it. */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = data.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head, body });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer in 10 s")));
    socket.write(request);
  });
}

const hasDetail = (res: { headers: string; body: string }) => {
  expect(res.headers).toMatch(/content-type: application\/json/i);
  expect(typeof JSON.parse(res.body).detail).toBe("string");
};

describe("what Node's HTTP parser refuses still answers {detail}", () => {
  it("a malformed request line is a 400 with a JSON body", async () => {
    const res = await raw("GARBAGE\r\n\r\n");
    expect(res.status).toBe(400);
    hasDetail(res);
    expect(JSON.parse(res.body).detail).toBe("Malformed HTTP request");
  });

  it("a header with a bad character is a 400 with a JSON body", async () => {
    const res = await raw("GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n");
    expect(res.status).toBe(400);
    hasDetail(res);
  });

  it("headers past Node's size limit are a 431 with a JSON body", async () => {
    const res = await raw(
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    hasDetail(res);
    expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
  });

  it("the server keeps serving afterwards", async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
  });
});

describe("a body over the limit: 413 with Connection: close, then the socket closes", () => {
  const head =
    "POST /api/v1/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
  const json = JSON.stringify({ email: "a@b.example", password: "x".repeat(20_000) });
  const cases = {
    // The whole body sent: Node could read it, but the limit refused it first.
    "a whole body": `${head}Content-Length: ${json.length}\r\n\r\n${json}`,
    // Announced bigger than what arrived (the rest still on its way).
    "a body still arriving": `${head}Content-Length: 5000000\r\n\r\n${json.slice(0, 10_000)}`,
    // Chunked, with no end.
    "a chunked body": `${head}Transfer-Encoding: chunked\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n`,
  };
  for (const [name, request] of Object.entries(cases)) {
    it(`${name}: the answer says close, comes whole, and the server closes`, async () => {
      // raw() resolves when the server closes the socket; it stayed open before (keep-alive).
      const res = await raw(`${request}`);
      expect(res.status).toBe(413);
      expect(res.headers).toMatch(/^connection: close$/im);
      expect(res.headers).not.toMatch(/keep-alive/i);
      hasDetail(res);
      const length = Number(/^content-length: (\d+)$/im.exec(res.headers)?.[1]);
      expect(Buffer.byteLength(res.body)).toBe(length);
    });
  }
});

import { createServer } from "node:http";

/**
 * Ceiling for `GET /health`: bare node:http answering the app's body with the app's
 * content-type (the bench reads it from the app and passes it in), nothing else.
 */
const port = Number(process.env.PORT);
const contentType = process.env.CEILING_CONTENT_TYPE || "application/json";
const body = Buffer.from(JSON.stringify({ status: "ok" }));

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/health") {
    res.writeHead(200, { "content-type": contentType, "content-length": body.length });
    res.end(body);
    return;
  }
  res.writeHead(404).end();
});
server.listen(port, "0.0.0.0");

process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});

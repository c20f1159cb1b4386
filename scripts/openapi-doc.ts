/**
 * Writes the served OpenAPI document to a file, or to stdout without one (`npm run openapi:doc`,
 * `npm run lint:openapi`, `npm run openapi:client`).
 *
 *   tsx scripts/openapi-doc.ts [out.json]
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { openApiDocument } from "./openapi-document";

const out = process.argv[2];
const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
if (out) {
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, text);
} else process.stdout.write(text);

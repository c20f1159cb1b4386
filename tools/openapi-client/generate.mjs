// Generates schema.d.ts from an OpenAPI document with openapi-typescript (which needs the
// TypeScript 5 JS API, hence this package of its own).
//
//   node generate.mjs <document.json | -> [out.d.ts]     ("-" reads the document from stdin)
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob"));
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());

async function readDocument(source) {
  if (source !== "-") return readFile(source, "utf8");
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The types of a document, as the committed schema.d.ts holds them. */
export async function generateTypes(documentText) {
  // openapi-typescript's default options, as a frontend team runs it: with defaultNonNullable
  // (on by default) a `default` in a shared component makes the field required, which is right
  // for answers; request bodies carry their defaulted schemas in place (http/openapi-document.ts),
  // so fields the server defaults stay optional to send (flow.ts leaves them out).
  const ast = await openapiTS(JSON.parse(documentText), {
    // A file to upload is a Blob (or File) in a browser or Node, not a string.
    transform(schema) {
      if (schema.format !== "binary") return undefined;
      const nullable = Array.isArray(schema.type) && schema.type.includes("null");
      return nullable ? ts.factory.createUnionTypeNode([BLOB, NULL]) : BLOB;
    },
  });
  return `${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [source = "-", out = join(here, "schema.d.ts")] = process.argv.slice(2);
  await writeFile(out, await generateTypes(await readDocument(source)));
}

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { getTableName, isTable } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";

// One owner per table (docs/adding-a-module.md, ADR 0077): every insert, update or delete in
// src/modules names its table through the schema (`insert into ${customers}`, or an alias made
// with `alias(customers, "c")`), and that table must belong to the module the file is in.

const root = join(import.meta.dirname, "../..");
const modulesDir = join(root, "src/modules");

/** Database table name -> owning module, read from the table in docs/adding-a-module.md. */
function ownersFromDocs(): Map<string, string> {
  const doc = readFileSync(join(root, "docs/adding-a-module.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Table owners"));
  const owners = new Map<string, string>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 4 || cells[1] === "Module" || cells[1]?.startsWith("-")) continue;
    for (const table of cells[2]!.split(",")) owners.set(table.trim(), cells[1]!);
  }
  return owners;
}

/** Schema export name (`creditLedger`) -> database table name (`credit_ledger`). */
const tableNames = new Map(
  Object.entries(schema)
    .filter(([, value]) => isTable(value))
    .map(([name, value]) => [name, getTableName(value as Parameters<typeof getTableName>[0])]),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

interface Write {
  file: string;
  table: string;
}

/** `const c = alias(customers, "c")` or `const t = creditLedger;`: name -> schema export. */
const ALIAS = /const (\w+) = (?:alias\()?(\w+)\s*[,;)]/g;
const WRITE = /\b(?:insert into|update|delete from)\s+\$\{(\w+)\}/gi;

/** The table a name stands for at a position: the nearest definition before it, else itself. */
function tableAt(text: string, name: string, at: number): string | undefined {
  let target = name;
  for (const m of text.slice(0, at).matchAll(ALIAS)) if (m[1] === name) target = m[2]!;
  return tableNames.get(target);
}

/** The tables a file writes: `insert into ${x}`, `update ${x}`, `delete from ${x}`. */
function writesIn(file: string): Write[] {
  const text = readFileSync(file, "utf8");
  const writes: Write[] = [];
  for (const m of text.matchAll(WRITE)) {
    const table = tableAt(text, m[1]!, m.index);
    // `${table}` in the shared provider admin is its configured table (ai_providers or
    // search_providers), passed in by each owner; anything else unknown fails below.
    if (table) writes.push({ file: relative(root, file), table });
    else if (!(m[1] === "table" && file.includes("provider-admin"))) {
      writes.push({ file: relative(root, file), table: `unknown \${${m[1]}}` });
    }
  }
  return writes;
}

describe("table owners", () => {
  const owners = ownersFromDocs();

  it("lists every table of the schema exactly once", () => {
    expect([...owners.keys()].sort()).toEqual([...tableNames.values()].sort());
  });

  it("has every write in src/modules made by the table's owner, inside its queries", () => {
    const writes = readdirSync(modulesDir).flatMap((module) =>
      sourceFiles(join(modulesDir, module)).flatMap((file) =>
        writesIn(file).map((w) => ({ ...w, module })),
      ),
    );
    expect(writes.length).toBeGreaterThan(50);
    const strays = writes.filter(
      (w) =>
        (w.module !== owners.get(w.table) && w.module !== "provider-admin") ||
        !/\/queries(\.ts|\/)/.test(w.file),
    );
    expect(strays).toEqual([]);
  });

  it("would catch a module writing another module's table", () => {
    const text = 'const c = alias(customers, "c"); sql`update ${c} set x = 1`';
    const [m] = [...text.matchAll(WRITE)];
    expect(tableAt(text, m![1]!, m!.index)).toBe("customers");
    expect(owners.get("customers")).not.toBe("agent");
  });
});

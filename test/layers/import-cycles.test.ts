import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseSync } from "oxc-parser";
import { describe, expect, it } from "vitest";

// No import cycle in src/ (ADR 0096), type-only imports included: a type-only cycle is how the
// run-time ones start (deps.ts and the ports in src/http once imported each other through 23
// files), and it ties the files' meaning together as much as a run-time one does. `Deps` and
// the port interfaces live in src/ports.ts, which imports types only from modules that do not
// import it back.

const root = join(import.meta.dirname, "../..");
const src = join(root, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The file a relative specifier names (`./x`, `./x.ts`, `./dir` with index.ts); else null. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null; // a package
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.d.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${relative(root, from)}: cannot resolve ${specifier}`);
}

interface Edge {
  to: string;
  typeOnly: boolean;
}

/** Every import of every file under `dir`: static, re-exports and import() with a literal. */
function importGraph(dir: string): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, "utf8");
    const { module, errors } = parseSync(file, text);
    if (errors.length > 0) throw new Error(`${relative(root, file)}: ${errors[0]!.message}`);
    const edges: Edge[] = [];
    const add = (specifier: string, typeOnly: boolean) => {
      const to = resolveImport(file, specifier);
      if (to) edges.push({ to, typeOnly });
    };
    for (const i of module.staticImports) {
      // `import "x"` (no bindings) runs x; `import { type A, B }` needs x at run time.
      add(i.moduleRequest.value, i.entries.length > 0 && i.entries.every((e) => e.isType));
    }
    for (const e of module.staticExports) {
      for (const entry of e.entries) {
        if (entry.moduleRequest) add(entry.moduleRequest.value, entry.isType);
      }
    }
    for (const d of module.dynamicImports) {
      const literal = /^(["'`])([^"'`$]*)\1$/.exec(
        text.slice(d.moduleRequest.start, d.moduleRequest.end),
      );
      if (literal) add(literal[2]!, false);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The strongly connected components of more than one file, or a file importing itself. */
function cycles(graph: Map<string, Edge[]>, { runtimeOnly = false } = {}): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { to, typeOnly } of graph.get(v) ?? []) {
      if (runtimeOnly && typeOnly) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v)!, index.get(to)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(root, w));
    } while (w !== v);
    const selfImport = (graph.get(v) ?? []).some((e) => e.to === v);
    if (component.length > 1 || selfImport) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("import cycles", () => {
  const graph = importGraph(src);

  it("reads the imports of every file in src/", () => {
    // A walk that read nothing would find no cycle: it must see these edges.
    const edgesOf = (file: string) =>
      (graph.get(join(src, file)) ?? []).map(
        (e) => `${relative(src, e.to)}${e.typeOnly ? " (type)" : ""}`,
      );
    expect(edgesOf("deps.ts")).toContain("ports.ts (type)");
    expect(edgesOf("runtime/node/database.ts")).toContain("runtime/node/pglite.ts");
    expect(graph.size).toBeGreaterThan(300);
  });

  it("finds a cycle when there is one", () => {
    const a = join(src, "a.ts");
    const b = join(src, "b.ts");
    const c = join(src, "c.ts");
    const made = new Map<string, Edge[]>([
      [a, [{ to: b, typeOnly: false }]],
      [b, [{ to: c, typeOnly: true }]],
      [c, [{ to: a, typeOnly: false }]],
    ]);
    expect(cycles(made)).toEqual([["src/a.ts", "src/b.ts", "src/c.ts"]]);
    expect(cycles(made, { runtimeOnly: true })).toEqual([]);
  });

  it("has no cycle in src/, type-only imports included", () => {
    expect(cycles(graph)).toEqual([]);
  });
});

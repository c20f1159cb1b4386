import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// docs/ARCHITECTURE.md is the team's own description of the tree (ADR 0096): its tree block
// must name every folder under src/ and every file at the top of the folders below, and every
// path it names must exist.

const root = join(import.meta.dirname, "../..");
const FILES_NAMED_IN = ["src", "src/db", "src/http", "src/runtime", "src/runtime/node"];

/**
 * The paths the tree block of "One app, many deployables" names. Each line is an indentation
 * (two spaces a level), then names (a folder ends in `/`), then after two spaces or more a
 * description; a line whose first word is not a name continues a description. A name is
 * under the nearest folder above it with less indentation; `<domain>` stands for any one
 * folder.
 */
function namedPaths(doc: string): string[] {
  const section = doc.slice(doc.indexOf("## One app, many deployables"));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("no tree block under 'One app, many deployables'");
  const isName = (word: string) =>
    /^(?:[\w.-]+|<\w+>)(?:\/(?:[\w.-]+|<\w+>))*\/$/.test(word) ||
    /^\.?[\w-]+(\.[\w-]+)+$/.test(word);
  const folders: { indent: number; path: string }[] = [];
  const paths: string[] = [];
  for (const line of block.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const names: string[] = [];
    for (const word of line.trim().split(/ +/)) {
      if (!word || !isName(word)) break;
      names.push(word);
    }
    if (names.length === 0) continue;
    while (folders.length > 0 && folders.at(-1)!.indent >= indent) folders.pop();
    const parent = folders.at(-1)?.path ?? "";
    for (const name of names) paths.push(parent + name);
    const folder = names.length === 1 && names[0]!.endsWith("/") ? names[0] : undefined;
    if (folder) folders.push({ indent, path: parent + folder });
  }
  return paths;
}

/** A named path as a pattern over real paths (`<domain>` is one segment). */
const patternOf = (named: string) =>
  new RegExp(
    `^${named
      .replace(/\/$/, "")
      .split(/(<\w+>)/)
      .map((part) => (/^<\w+>$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
  );

function srcFolders(dir = "src"): string[] {
  return readdirSync(join(root, dir))
    .filter((entry) => statSync(join(root, dir, entry)).isDirectory())
    .flatMap((entry) => [`${dir}/${entry}`, ...srcFolders(`${dir}/${entry}`)]);
}

const filesIn = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((entry) => statSync(join(root, dir, entry)).isFile())
    .map((entry) => `${dir}/${entry}`);

/** Every real path matched by the named one (itself when it has no `<...>`). */
function matches(named: string, real: string[]): string[] {
  if (!/<\w+>/.test(named)) return existsSync(join(root, named)) ? [named] : [];
  const pattern = patternOf(named);
  return real.filter((path) => pattern.test(path));
}

describe("docs/ARCHITECTURE.md", () => {
  const named = namedPaths(readFileSync(join(root, "docs/ARCHITECTURE.md"), "utf8"));
  const folders = srcFolders();
  const files = FILES_NAMED_IN.flatMap(filesIn);
  const patterns = named.map(patternOf);
  const isNamed = (path: string) => patterns.some((pattern) => pattern.test(path));

  it("reads the tree block", () => {
    // A parser that read nothing would pass the checks below: it must see these.
    expect(named).toEqual(
      expect.arrayContaining(["src/", "src/db/cte.ts", "src/http/auth.ts", "package.json"]),
    );
    expect(named).toContain("src/modules/<domain>/queries/");
    expect(named).toContain("src/runtime/node/pglite.ts");
  });

  it("names every folder under src/", () => {
    expect(folders.filter((folder) => !isNamed(folder))).toEqual([]);
  });

  it(`names every file at the top of ${FILES_NAMED_IN.join(", ")}`, () => {
    expect(files.filter((file) => !isNamed(file))).toEqual([]);
  });

  it("names no path that does not exist", () => {
    expect(named.filter((path) => matches(path, [...folders, ...files]).length === 0)).toEqual([]);
  });

  it("fails on a folder it does not name, and on a path that does not exist", () => {
    const doc = "## One app, many deployables\n\n```\nsrc/\n  db/  gone/\n  push/\n```\n";
    const paths = namedPaths(doc);
    expect(paths).toEqual(["src/", "src/db/", "src/gone/", "src/push/"]);
    const ps = paths.map(patternOf);
    expect(folders.filter((f) => !ps.some((p) => p.test(f)))).toContain("src/http");
    expect(paths.filter((p) => matches(p, folders).length === 0)).toEqual([
      "src/gone/",
      "src/push/",
    ]);
  });
});

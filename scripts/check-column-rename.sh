#!/usr/bin/env bash
# Issue #12's closing check: renaming a column in src/db/schema must break `tsc` in every
# source file that uses it. Copies the tree, renames customers.contact_name (TS key and
# database name) and company, type-checks, and fails if a file that used either still compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r src test bench functions tsconfig.json drizzle.config.ts vitest.config.ts "$work"/
ln -s "$PWD/node_modules" "$work/node_modules"
schema="$work/src/db/schema/workspace.ts"
grep -q 'contactName: text("contact_name")' "$schema"
sed -i 's/contactName: text("contact_name")/contactPerson: text("contact_person")/' "$schema"
# Files that name the column in SQL: they import the customers table and use contactName.
users=$(grep -rlE 'import \{[^}]*\bcustomers\b[^}]*\} from "[./]*db/schema"' src --include=*.ts |
  xargs grep -l 'contactName' | sort)
errors=$(cd "$work" && npx tsc --noEmit 2>&1 | grep -oE '^src/[^(]+' | sort -u || true)
missing=0
for f in $users; do
  if ! grep -qx "$f" <<<"$errors"; then
    echo "still compiles after the rename: $f"
    missing=1
  fi
done
echo "renamed customers.contact_name: $(wc -w <<<"$errors") files fail to compile:"
sed 's/^/  /' <<<"$errors"
[ -n "$users" ] || { echo "no file names the column: the check itself is broken"; exit 1; }
exit $missing

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
# Files that use the column: through the schema (contactName) or by its raw name (contact_name).
users=$(grep -rlE '\bcontactName\b|\bcontact_name\b' src --include=*.ts | grep -v '^src/db/schema/' | sort)
errors=$(cd "$work" && npx tsc --noEmit 2>&1 | grep -oE '^src/[^(]+' | sort -u || true)
missing=0
for f in $users; do
  if ! grep -qx "$f" <<<"$errors"; then
    # A file may only name the column in a zod schema or response (API field), not in SQL.
    if grep -qE 'sql`[^`]*contact_name|\$\{[a-z]+\.contactName\}|DbRow' "$f"; then
      echo "still compiles after the rename: $f"
      missing=1
    fi
  fi
done
echo "column rename: $(wc -w <<<"$errors") files fail to compile:"
sed 's/^/  /' <<<"$errors"
exit $missing

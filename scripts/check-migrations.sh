#!/usr/bin/env bash
# Fails when src/db/schema and migrations/ disagree: runs `drizzle-kit generate` and, if it wrote
# a migration, prints it, removes it (and restores meta/_journal.json) and exits 1. Write the
# migration with `npm run db:generate` instead. No database is needed.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=migrations
backup="$(mktemp -d)"
trap 'rm -rf "$backup"' EXIT
cp "$dir/meta/_journal.json" "$backup/_journal.json"
(cd "$dir" && find . -type f | sort) >"$backup/before"

# stdin closed: a rename prompt (ambiguous schema change) fails instead of waiting for input.
status=0
output="$(timeout 120 npx --no-install drizzle-kit generate </dev/null 2>&1)" || status=$?

(cd "$dir" && find . -type f | sort) >"$backup/after"
created="$(comm -13 "$backup/before" "$backup/after")"

if [ -n "$created" ]; then
  echo "check-migrations: drizzle-kit generate wrote a migration; src/db/schema has changes that"
  echo "no migration covers. Run 'npm run db:generate' and commit the result. Generated:"
  while IFS= read -r file; do
    case "$file" in *.sql) echo "--- $dir/${file#./}"; cat "$dir/$file"; echo ;; esac
  done <<<"$created"
  while IFS= read -r file; do rm -f "$dir/$file"; done <<<"$created"
  cp "$backup/_journal.json" "$dir/meta/_journal.json"
  exit 1
fi
if ! cmp -s "$backup/_journal.json" "$dir/meta/_journal.json"; then
  cp "$backup/_journal.json" "$dir/meta/_journal.json"
  echo "check-migrations: drizzle-kit generate changed meta/_journal.json (restored)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "$output" >&2
  echo "check-migrations: drizzle-kit generate failed (exit $status)" >&2
  exit 1
fi
echo "check-migrations: schema and migrations agree"

#!/bin/sh
# Prisma 7's CLI downloads a native schema engine before every command, which fails offline.
# generate/validate/format never use it, so prisma.config.ts points the CLI at this stub.
# Migrations run through the npm-published wasm engine instead: npm run db:migrate / db:deploy.
if [ "$1" = "--version" ]; then echo "schema-engine-cli offline-stub"; exit 0; fi
echo "The Prisma schema-engine binary is not installed (offline). Use npm run db:migrate / db:deploy (scripts/db.ts)." >&2
exit 1

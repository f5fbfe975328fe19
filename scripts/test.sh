#!/usr/bin/env bash
# `npm test`: every tier. System packages first (Chromium, xmllint), then typecheck, lint and
# formatting, then the unit, integration and end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-system-deps.sh
node -e 'if (!process.version.startsWith("v24.")) { console.error("expected Node 24 from the node devDependency, got " + process.version); process.exit(1) }'
npm run --silent typecheck
npm run --silent lint
npx vitest run "$@"

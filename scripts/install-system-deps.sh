#!/usr/bin/env bash
# Installs the Debian packages the test tiers need, when missing: Chromium for the browser tests,
# xmllint (libxml2-utils) for the Atom RELAX NG check and PostgreSQL for the hub's shared store
# (the tests start their own server in a temporary directory; no system service is used).
# Idempotent; needs root or sudo.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null || need+=(postgresql)
[ ${#need[@]} -eq 0 ] && exit 0

echo "installing Debian packages: ${need[*]}"
sudo_cmd=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo -n); else
    echo "need root (or sudo) to apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -o DPkg::Lock::Timeout=300 -y -qq --no-install-recommends "${need[@]}" >/dev/null

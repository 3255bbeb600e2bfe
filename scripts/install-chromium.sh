#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (Playwright never downloads its own here).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
/usr/bin/chromium --version

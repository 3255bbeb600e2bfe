#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (Playwright never downloads its own here),
# with the fonts it recommends: without fonts-liberation (a Chromium installed with
# --no-install-recommends) text is drawn wider and the charts drop axis labels the tests read.
set -euo pipefail
if [ -x /usr/bin/chromium ] && dpkg -s fonts-liberation >/dev/null 2>&1; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium fonts-liberation
/usr/bin/chromium --version

#!/usr/bin/env bash
# Installs Debian's HAProxy for the cluster test (scripts/test-cluster.mjs puts three server
# nodes behind it, with deploy/haproxy/haproxy.cfg) when it is missing.
set -euo pipefail
if command -v haproxy >/dev/null 2>&1; then
  echo "haproxy: $(haproxy -v 2>/dev/null | head -n 1)"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends haproxy
haproxy -v | head -n 1

#!/usr/bin/env bash
# Installs Debian's HAProxy for the cluster test (scripts/test-cluster.mjs puts three server
# nodes behind it, with deploy/haproxy/haproxy.cfg) when it is missing.
set -euo pipefail
if command -v haproxy >/dev/null 2>&1; then
  echo "haproxy: $(haproxy -v 2>/dev/null | sed -n 1p)"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends haproxy
# sed reads all of the output: with `head`, HAProxy could be killed by SIGPIPE while still
# writing, and under pipefail that failed the script (and CI) on a machine that lacked HAProxy.
haproxy -v | sed -n 1p

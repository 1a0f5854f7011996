#!/usr/bin/env bash
# Installs, with apt-get, whatever warpgraph needs to build and test that is missing.
# Idempotent and quiet when everything is there. Run as root (or with sudo available).
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config zlib1g-dev libboost-graph-dev libgtest-dev libgmock-dev
      libcxxopts-dev nlohmann-json3-dev libfmt-dev libabsl-dev python3-matplotlib clang
      libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# Installs, with apt-get, whatever warpgraph needs to build and test that is missing, then makes
# the repository's .venv (Debian's /usr/bin/python3 with its packages, plus nanobind from PyPI,
# which Debian 12 does not package) that the build uses for the Python module and its tests.
# Idempotent and quiet when everything is there. Run as root (or with sudo available).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(cmake ninja-build g++ pkg-config zlib1g-dev libboost-graph-dev libgtest-dev libgmock-dev
      libcxxopts-dev nlohmann-json3-dev libfmt-dev libabsl-dev python3-matplotlib clang
      libclang-rt-14-dev python3-dev python3-venv python3-numpy python3-pytest python3-networkx)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
venv="$root/.venv"
if ! "$venv/bin/python3" -c "import nanobind, numpy, networkx, pytest" 2>/dev/null; then
  echo "install-deps: making $venv with nanobind (PyPI)" >&2
  rm -rf "$venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "nanobind>=2.0"
fi

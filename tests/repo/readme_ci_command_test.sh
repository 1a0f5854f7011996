#!/usr/bin/env bash
# The README's test command (the line after the marker "<!-- test-command -->") must be the
# command .ci/run runs, so CI tests exactly what users are told to run.
set -euo pipefail
root=$1
readme_cmd=$(awk '/<!-- test-command -->/{getline; getline; print; exit}' "$root/README.md")
ci_cmd=$(grep -E '^scripts/install-deps.sh' "$root/.ci/run" || true)
if [ -z "$readme_cmd" ] || [ "$readme_cmd" != "$ci_cmd" ]; then
  echo "README test command and .ci/run differ:" >&2
  echo "  README: $readme_cmd" >&2
  echo "  CI    : $ci_cmd" >&2
  exit 1
fi
echo "README and .ci/run run: $ci_cmd"

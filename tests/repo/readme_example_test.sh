#!/usr/bin/env bash
# The C++ example in the README must be tests/repo/consumer/readme_example.cpp, which the
# install_consumer test compiles against an installed warpgraph and runs.
set -euo pipefail
root=$1
snippet=$(awk '/<!-- cpp-example -->/{f=1; next} f && /^```cpp/{g=1; next} g && /^```/{exit} g' "$root/README.md")
if [ "$snippet" != "$(cat "$root/tests/repo/consumer/readme_example.cpp")" ]; then
  echo "README's C++ example differs from tests/repo/consumer/readme_example.cpp" >&2
  diff <(echo "$snippet") "$root/tests/repo/consumer/readme_example.cpp" >&2 || true
  exit 1
fi
echo "README example matches tests/repo/consumer/readme_example.cpp"

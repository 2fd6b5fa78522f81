# Sourced first by tests/cli/*.sh, which ctest runs as `bash SCRIPT FABRICCTL` from the repository root:
# strict mode, the binary under test ($bin), the repository root ($root), a private work directory
# removed on exit ($work), and fail MESSAGE.
set -euo pipefail
bin=$(realpath "$1")
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

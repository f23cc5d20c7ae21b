#!/bin/bash
# Fills DIR with what scripts/field/run.sh needs on the GPU machine: kf.tar.xz (bundle.sh),
# the field scripts and facts.sh (the facts script of core/hosts/serverfacts.cpp, for the raw
# captures). Usage: scripts/field/prepare.sh DIR [KERNELFORGE_CLI]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 cli=${2:-$here/../../build/ci/app/kernelforge-cli}
mkdir -p "$dir"
"$here/bundle.sh" "$cli" "$dir/kf.tar.xz"
cp "$here"/run.sh "$here"/sshd-up.sh "$here"/genproject.py "$here"/load.py "$here"/compare.py "$dir/"
awk '/constexpr char kScript\[\] = R"SH\(/{f=1; sub(/.*R"SH\(/,"")} f{ if ($0 ~ /\)SH"/) {sub(/\)SH".*/,""); print; exit} print }' \
  "$here/../../core/hosts/serverfacts.cpp" >"$dir/facts.sh"

#!/bin/bash
# Builds a self-contained folder of kernelforge-cli and OpenSSH's sshd with every shared
# library they load, glibc's loader included, rewritten with patchelf to run from PREFIX
# (default /opt/kf) on a machine whose own libraries differ. Output: OUT.tar.xz.
# Usage: scripts/field/bundle.sh KERNELFORGE_CLI OUT.tar.xz [PREFIX]
set -euo pipefail
cli=$1 out=$2 prefix=${3:-/opt/kf}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/kf
mkdir -p "$root/bin" "$root/lib" "$root/plugins/sqldrivers"
qtplugins=$(dirname "$(dpkg -L libqt6sql6-sqlite | grep '/sqldrivers/libqsqlite.so$')")
cp -L "$cli" /usr/sbin/sshd /usr/bin/ssh-keygen "$root/bin/"
cp -L "$qtplugins/libqsqlite.so" "$root/plugins/sqldrivers/"
libs() { ldd "$@" | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' | sort -u; }
for l in $(libs "$root"/bin/* "$root"/plugins/sqldrivers/*); do cp -L "$l" "$root/lib/"; done
loader=$(ls "$root"/lib/ld-linux-x86-64.so.2)
strip --strip-unneeded "$root"/bin/* "$root"/lib/*.so* "$root"/plugins/sqldrivers/* 2>/dev/null || true
for b in "$root"/bin/*; do
  patchelf --set-interpreter "$prefix/lib/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$prefix/lib" "$b"
done
for l in "$root"/lib/*.so* "$root"/plugins/sqldrivers/*; do
  [ "$l" = "$loader" ] || patchelf --force-rpath --set-rpath "$prefix/lib" "$l"
done
cat >"$root/env.sh" <<ENV
export QT_PLUGIN_PATH=$prefix/plugins LC_ALL=C.UTF-8 LANG=C.UTF-8
ENV
tar -C "$stage" -cJf "$out" kf
ls -l "$out"

#!/bin/bash
# Starts the bundled sshd on 127.0.0.1:PORT with throwaway host and user keys (made here by
# the bundled ssh-keygen), root login by key only, and writes the client side to DIR/client:
# id_ed25519 and a known_hosts for [127.0.0.1]:PORT. Usage: sshd-up.sh PREFIX DIR PORT
set -euo pipefail
prefix=$1 dir=$2 port=$3
mkdir -p "$dir/etc" "$dir/client" "$dir/log" /run/sshd
chmod 700 "$dir/client"
kg=$prefix/bin/ssh-keygen
[ -f "$dir/etc/host_ed25519" ] || "$kg" -q -t ed25519 -N '' -C kf-field-host -f "$dir/etc/host_ed25519" </dev/null
[ -f "$dir/client/id_ed25519" ] || "$kg" -q -t ed25519 -N '' -C kf-field-user -f "$dir/client/id_ed25519" </dev/null
cp "$dir/client/id_ed25519.pub" "$dir/etc/authorized_keys"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/etc/host_ed25519.pub")" >"$dir/client/known_hosts"
# Privilege separation needs an unprivileged user named sshd.
id sshd >/dev/null 2>&1 || echo 'sshd:x:74:65534:sshd privsep:/run/sshd:/usr/sbin/nologin' >>/etc/passwd
cat >"$dir/etc/sshd_config" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $dir/etc/host_ed25519
PidFile $dir/log/sshd.pid
AuthorizedKeysFile $dir/etc/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
PrintMotd no
UseDNS no
MaxSessions 64
MaxStartups 64
AllowTcpForwarding yes
LogLevel VERBOSE
Subsystem sftp internal-sftp
CFG
"$prefix/bin/sshd" -t -f "$dir/etc/sshd_config"
"$prefix/bin/sshd" -f "$dir/etc/sshd_config" -E "$dir/log/sshd.log"
for i in $(seq 50); do
  if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then echo "sshd up on 127.0.0.1:$port (pid $(cat "$dir/log/sshd.pid"))"; exit 0; fi
  sleep 0.1
done
echo "sshd did not start"; cat "$dir/log/sshd.log"; exit 1

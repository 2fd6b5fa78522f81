# Sourced by tests that need devices behind a real OpenSSH sshd on 127.0.0.1 (after lib/common.sh).
#   need_sshd                          SKIP (exit 77) without sshd, FAIL in CI
#   client_key                         $work/client_key: the key the devices accept
#   start_device NAME FORCE_COMMAND    an sshd with its own host key ($work/NAME/host.pub) whose every
#                                      login runs FORCE_COMMAND; sets port_NAME and pid_NAME
#   start_emulator NAME EMULATOR       the emulator server of EMULATOR (a path under tests/lab/emulators/;
#                                      zygote.py: Python started once, a fork per command) on
#                                      $work/NAME.sock, and its client $work/emu-client; sets
#                                      server_NAME (its pid). Needs no sshd.
#   start_emulated NAME EMULATOR STATE a device whose every login runs EMULATOR on STATE, through its
#                                      own emulator server
#   wait_device NAME                   until its sshd accepts connections
#   stop_device NAME                   kills it and its connections
#   restart_device NAME                stops it and starts it again (a new host key), same port
# Every sshd and emulator server is stopped on exit.
need_sshd() {
  if [ ! -x /usr/sbin/sshd ]; then
    [ -n "${CI:-}" ] && fail "sshd is required in CI (scripts/install-deps installs openssh-server)"
    echo "SKIP: sshd is not installed (openssh-server)"
    exit 77
  fi
  [ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd  # privilege separation directory
  ssh-keygen -q -t ed25519 -N '' -C client -f "$work/client_key"
}
sshd_pids=""  # every sshd and emulator server, each the leader of its process group
trap 'for p in $sshd_pids; do kill -TERM -- "-$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start_device() {
  local name=$1 force=$2 dir="$work/$1" port i
  mkdir -p "$dir"
  [ -f "$dir/host" ] || ssh-keygen -q -t ed25519 -N '' -C "$name" -f "$dir/host"
  cp "$work/client_key.pub" "$dir/authorized_keys"
  port=$(free_port)
  # SetEnv SHLVL=1: Debian's bash reads ~/.bashrc for a command sshd runs unless SHLVL says it is nested;
  # the tester's rc files are no part of a switch's CLI (and cost a second per command under pyenv).
  cat >"$dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
ForceCommand $force
LogLevel VERBOSE
SetEnv SHLVL=1
CONF
  eval "port_$name=$port"
  launch_sshd "$name"
  wait_device "$name"
}

# launch_sshd NAME: its sshd on its configuration as it is on disk; sets pid_NAME. Without re-exec
# (-r): sshd would otherwise execute itself again for every connection (docs/testing.md).
launch_sshd() {
  setsid /usr/sbin/sshd -D -r -f "$work/$1/sshd_config" -E "$work/$1/sshd.log" &
  eval "pid_$1=$!"
  sshd_pids="$sshd_pids $!"
}

# restart_device NAME: stops its sshd and starts it again on the same port, reading its host key anew.
restart_device() {
  stop_device "$1"
  launch_sshd "$1"
  wait_device "$1"
}

start_emulator() {
  local name=$1 emulator=$2 socket="$work/$1.sock" zygote="$root/tests/lab/emulators/zygote.py" i
  [ -x "$work/emu-client" ] || /usr/bin/python3 "$zygote" --client "$work/emu-client"
  # Its output to /dev/null, not the test's: ctest waits for whatever holds the test's output.
  setsid /usr/bin/python3 "$zygote" "$socket" "$emulator" >/dev/null 2>"$work/$name.zygote.log" &
  sshd_pids="$sshd_pids $!"
  eval "server_$name=$!"
  for ((i = 0; i < 250; i++)); do  # it renames its socket into place once it listens: at most 5 s
    [ -S "$socket" ] && return 0
    pause 0.02
  done
  fail "the emulator server of $name did not start: $(cat "$work/$name.zygote.log")"
}

start_emulated() {
  start_emulator "$1" "$2"
  start_device "$1" "$work/emu-client $work/$1.sock $3"
}

# wait_device NAME: until its sshd accepts connections (at most about 10 s; bash's /dev/tcp connects).
wait_device() {
  local port i
  eval "port=\$port_$1"
  for ((i = 0; i < 200; i++)); do
    { : <>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null && return 0
    pause 0.05
  done
  fail "sshd of $1 did not start: $(cat "$work/$1/sshd.log")"
}

stop_device() {
  local pid
  eval "pid=\$pid_$1"
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

#!/usr/bin/env bash
# Bash completion (contrib/bash-completion/fabricctl, installed as
# share/bash-completion/completions/fabricctl): commands and options come from the binary's help,
# option values from fixed lists and the check catalog.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

# shellcheck source=/dev/null
. "$root/contrib/bash-completion/fabricctl"
complete -p fabricctl | grep -q -- '-F _fabricctl' || fail "the completion is not registered for fabricctl"

# complete WORD... : the candidates for the last word, sorted, one line.
complete_words() {
  COMP_WORDS=("$bin" "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _fabricctl
  printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' '
}
expect() {
  local want=$1; shift
  local got
  got=$(complete_words "$@")
  [ "$got" = "$want" ] || fail "completing '$*': got '$got', want '$want'"
}

expect "--help --version acceptance apply baseline collect design diff health help host plan render snapshot triage validate verify version " ""
expect "rail-optimized " design r
expect "--grow " design rail-optimized spec.yaml --gr
expect "--resume " apply --res
expect "render " "ren"
expect "--templates " render --te
expect "--output " verify -i inv --ou
expect "-p " validate -p
expect "--profiles " validate --prof
expect "table " verify -o t
expect "json " validate -o j
expect "json " render --out x -o j
expect "error " verify --severity e
expect "warning " verify -i inv --severity w
checks=$(complete_words verify --check link.mtu.)
case $checks in *link.mtu.mismatch*) ;; *) fail "check IDs not completed: '$checks'" ;; esac

# Directories for -p: only directories are offered.
mkdir -p "$work/profiles-a" "$work/profiles-b"
: >"$work/profiles-file"
cd "$work"
expect "profiles-a profiles-b " validate -p prof
expect "profiles-a profiles-b " design rail-optimized spec.yaml --check prof
echo "install completion: ok"

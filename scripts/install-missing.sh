#!/usr/bin/env bash
# Installs those of the Debian packages given after the first argument (who asks, for the message)
# that are not installed yet, through sudo unless root. scripts/setup.sh and scripts/test-setup.sh
# share it.
set -euo pipefail
who=$1
shift
missing=()
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    echo "$who: installing ${missing[*]}" >&2
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

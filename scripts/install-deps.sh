#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test NDL.
# Idempotent: packages already present are skipped by apt; node packages
# come from each package-lock.json with `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build python3 default-jre-headless
  antlr4 libantlr4-runtime-dev
  llvm-16-dev llvm-16-tools clang-16 libclang-rt-16-dev libfuzzer-16-dev
  libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev libgtest-dev
  gnuplot-nox
  python3-pandas python3-pytest neovim emacs-nox elpa-eglot
)
# Tools that may already come from elsewhere (a vendor's node build ships its
# own npm): install the Debian package only when the command is missing.
declare -A tools=([vim]=vim-nox [node]=nodejs [npm]=npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for t in "${!tools[@]}"; do
  command -v "$t" >/dev/null 2>&1 || missing+=("${tools[$t]}")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Node packages of the editor tests, pinned by their lock files.
for lock in editors/*/package-lock.json; do
  [ -e "$lock" ] || continue
  dir=$(dirname "$lock")
  if [ ! -d "$dir/node_modules" ] || [ "$lock" -nt "$dir/node_modules" ]; then
    echo "install-deps: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done

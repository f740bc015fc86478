# Sourced by the bench scripts: sets `root` (the repository) and `ndlc` (NDLC, else
# build/ndlc, configured and built when missing).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ndlc="${NDLC:-$root/build/ndlc}"
if [ ! -x "$ndlc" ]; then
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$root/build" --target ndlc -j "$(nproc)"
fi

#!/usr/bin/env bash
# hw/liboqs/fetch-source.sh — prints the path of the liboqs source tree that the Rust
# crate oqs-sys ships (the version pinned in Cargo.lock, used by pqsig-bench), fetching
# it first when this machine does not have it:
#   1. an unpacked crate in cargo's registry ($CARGO_HOME/registry/src/*/oqs-sys-V/liboqs);
#   2. the downloaded .crate in cargo's cache (unpacked into $PQSIG_LIBOQS_CACHE);
#   3. `cargo fetch --locked` of this workspace (the lockfile pins the crate and its
#      checksum), then 1 or 2;
#   4. curl of the .crate from static.crates.io, checked against Cargo.lock's sha256.
# LIBOQS_SRC=DIR skips all of this and uses DIR. Exits 2 when no way works.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
# The version and checksum Cargo.lock pins (one oqs-sys entry).
ver="$(awk '/^name = "oqs-sys"$/ {f=1; next} f && /^version = / {gsub(/"/, "", $3); print $3; exit}' "$root/Cargo.lock")"
sum="$(awk '/^name = "oqs-sys"$/ {f=1; next} f && /^checksum = / {gsub(/"/, "", $3); print $3; exit}' "$root/Cargo.lock")"
[ -n "$ver" ] && [ -n "$sum" ] || { echo "fetch-source: oqs-sys not in Cargo.lock" >&2; exit 2; }
crate="oqs-sys-$ver"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
cache="${PQSIG_LIBOQS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pqsig-liboqs}"

ok() { [ -f "$1/CMakeLists.txt" ] && [ -f "$1/tests/KATs/sig/kats.json" ]; }

if [ -n "${LIBOQS_SRC:-}" ]; then
  ok "$LIBOQS_SRC" || { echo "fetch-source: LIBOQS_SRC=$LIBOQS_SRC is not a liboqs tree" >&2; exit 2; }
  echo "$LIBOQS_SRC"; exit 0
fi

# A .crate file checked against the lockfile's sha256 and unpacked into the cache.
unpack() {
  local file="$1"
  [ "$(sha256sum "$file" | cut -d' ' -f1)" = "$sum" ] \
    || { echo "fetch-source: $file: sha256 differs from Cargo.lock" >&2; return 1; }
  mkdir -p "$cache"
  rm -rf "$cache/$crate.tmp" && mkdir "$cache/$crate.tmp"
  tar -xzf "$file" -C "$cache/$crate.tmp"
  rm -rf "$cache/$crate" && mv "$cache/$crate.tmp/$crate" "$cache/$crate" && rm -rf "$cache/$crate.tmp"
}

find_local() {
  local d f
  for d in "$cargo_home"/registry/src/*/"$crate"/liboqs "$cache/$crate/liboqs"; do
    if ok "$d"; then echo "$d"; return 0; fi
  done
  for f in "$cargo_home"/registry/cache/*/"$crate.crate"; do
    if [ -f "$f" ] && unpack "$f" && ok "$cache/$crate/liboqs"; then
      echo "$cache/$crate/liboqs"; return 0
    fi
  done
  return 1
}

find_local && exit 0
echo "fetch-source: $crate not on this machine; cargo fetch --locked" >&2
if (cd "$root" && cargo fetch --locked >&2); then
  find_local && exit 0
fi
echo "fetch-source: trying static.crates.io" >&2
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
url="https://static.crates.io/crates/oqs-sys/oqs-sys-${ver/+/%2B}.crate"
if command -v curl >/dev/null && curl -fsSL --retry 2 -o "$tmp/$crate.crate" "$url" \
   && unpack "$tmp/$crate.crate" && ok "$cache/$crate/liboqs"; then
  echo "$cache/$crate/liboqs"; exit 0
fi
echo "fetch-source: could not obtain $crate (registry, cargo fetch, $url)" >&2
exit 2

#!/usr/bin/env bash
# Smoke test of the small CLI (`cargo build -p pqsig-cli --no-default-features`): keygen,
# sign and verify work without `--alg` from PEM keys (and with it from raw ones), a
# tampered message is exit 1, and `serve` / `client`, not built in, exit 2 saying so.
# Usage: small-build-smoke.sh PATH/TO/pqsig
set -euo pipefail
BIN="${1:?usage: $0 PATH/TO/pqsig}"
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
fail() { echo "small-build-smoke: $*" >&2; exit 1; }

printf 'small build smoke test\n' > "$DIR/msg"
for alg in ML-DSA-44 Falcon-512; do
  "$BIN" keygen --alg "$alg" --pk "$DIR/pk.pem" --sk "$DIR/sk.pem"
  "$BIN" sign --sk "$DIR/sk.pem" --in "$DIR/msg" --out "$DIR/sig"
  "$BIN" verify --pk "$DIR/pk.pem" --in "$DIR/msg" --sig "$DIR/sig" || fail "$alg: valid signature refused"
  printf 'tampered\n' > "$DIR/bad"
  rc=0; "$BIN" verify --pk "$DIR/pk.pem" --in "$DIR/bad" --sig "$DIR/sig" 2>/dev/null || rc=$?
  [ "$rc" = 1 ] || fail "$alg: tampered message gave exit $rc, not 1"
  "$BIN" keygen --alg "$alg" --format raw --pk "$DIR/pk.raw" --sk "$DIR/sk.raw"
  "$BIN" sign --alg "$alg" --sk "$DIR/sk.raw" --in "$DIR/msg" --out "$DIR/sig"
  "$BIN" verify --alg "$alg" --pk "$DIR/pk.raw" --in "$DIR/msg" --sig "$DIR/sig" || fail "$alg: raw keys"
done
for cmd in serve client; do
  rc=0; err="$("$BIN" "$cmd" --help 2>&1 >/dev/null)" || rc=$?
  [ "$rc" = 2 ] || fail "$cmd: exit $rc, not 2"
  case "$err" in *"is not built in"*) ;; *) fail "$cmd: unexpected message: $err" ;; esac
done
echo "small-build-smoke: ok (keygen/sign/verify; serve and client not built in)"

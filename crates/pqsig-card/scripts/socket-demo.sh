#!/usr/bin/env bash
# The socket demo on the card (issue 17, item 4): a `timed` card, `pqsig serve --device
# card` with PQSIG_CARD pointing at it, and `pqsig client` signing and verifying over the
# binary socket protocol (unix socket). The NTTs of the server's ML-DSA operations run on
# the card: the script reads the card's counters (`pqsig card --stats`) before and after
# and fails unless its NTT and inverse-NTT request counts grew, with no errors. It also
# checks that a tampered message is rejected (exit 1) through the same path.
#
#   crates/pqsig-card/scripts/socket-demo.sh [ROUNDS]      # from the repository root
#
# ROUNDS (default 5): sign + verify rounds per algorithm (ML-DSA-44, -65, -87). PQSIG_BIN
# names the CLI (default target/debug/pqsig, or $CARGO_TARGET_DIR/debug/pqsig); DEVICE
# picks the driver mode (card = pooled, the default; card-per-call = the design's
# scheme); ACCEL picks the accelerator (timed; rtl needs the CLI built with hw-sim).
# Exit 0: every signature verified, the tampered one was rejected, the counters grew.
set -euo pipefail
ROUNDS=${1:-5}
BIN=${PQSIG_BIN:-${CARGO_TARGET_DIR:-target}/debug/pqsig}
DEVICE=${DEVICE:-card}
ACCEL=${ACCEL:-timed}
# Key creation goes over the HTTP API (the binary protocol has no key management).
create_key() { # alg -> JSON reply
  if command -v curl >/dev/null; then
    curl -sf -H 'Authorization: Bearer demo-token-0123456789' -d "{\"alg\":\"$1\"}" "http://127.0.0.1:$PORT/v1/keys"
  else
    python3 - "$1" "$PORT" <<'PY'
import sys, urllib.request
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[2]}/v1/keys", data=('{"alg":"%s"}' % sys.argv[1]).encode(),
                             headers={"Authorization": "Bearer demo-token-0123456789"})
try:
    print(urllib.request.urlopen(req, timeout=30).read().decode())
except Exception as e:
    sys.exit(f"socket-demo.sh: key creation: {e}")
PY
  fi
}
[ -x "$BIN" ] || { echo "socket-demo.sh: no CLI at $BIN (cargo build -p pqsig-cli)" >&2; exit 2; }

TMP=$(mktemp -d)
CARD_PID= SERVE_PID=
cleanup() {
  [ -n "$SERVE_PID" ] && kill -TERM "$SERVE_PID" 2>/dev/null && wait "$SERVE_PID" 2>/dev/null || true
  [ -n "$CARD_PID" ] && kill -TERM "$CARD_PID" 2>/dev/null && wait "$CARD_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
fail() { echo "socket-demo.sh: $*" >&2; for f in card serve; do sed "s/^/  $f: /" "$TMP/$f.log" >&2 || true; done; exit 1; }
wait_for() { for _ in $(seq 200); do [ -e "$1" ] && return 0; sleep 0.05; done; return 1; }
# One counter from the card's JSON stats line.
counter() { "$BIN" card --stats --socket "$TMP/card.sock" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }

"$BIN" card --accel "$ACCEL" --socket "$TMP/card.sock" 2>"$TMP/card.log" &
CARD_PID=$!
wait_for "$TMP/card.sock" || fail "the card did not start"
export PQSIG_CARD="$TMP/card.sock"

PORT=$((20000 + RANDOM % 20000))
cat >"$TMP/server.toml" <<TOML
listen = "127.0.0.1:$PORT"
db = "$TMP/keys.db"
[[token]]
name = "demo"
token = "demo-token-0123456789"
keys = ["*"]
operations = ["sign", "verify", "admin"]
TOML
printf 'demo-token-0123456789' >"$TMP/tok"
"$BIN" serve --device "$DEVICE" --config "$TMP/server.toml" --insecure-dev-key \
  --proto-unix "$TMP/proto.sock" 2>"$TMP/serve.log" &
SERVE_PID=$!
wait_for "$TMP/proto.sock" || fail "the server did not start"
"$BIN" client ping --server "unix:$TMP/proto.sock" >/dev/null || fail "the server does not answer"

ntt0=$(counter ntt_requests); intt0=$(counter intt_requests); err0=$(counter errors)
for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87; do
  id=$(create_key "$alg" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p') || true
  [ -n "$id" ] || fail "$alg: key creation failed"
  for i in $(seq "$ROUNDS"); do
    printf 'message %s for %s' "$i" "$alg" >"$TMP/msg"
    "$BIN" client sign --server "unix:$TMP/proto.sock" --token-file "$TMP/tok" --key-id "$id" \
      --in "$TMP/msg" --out "$TMP/sig" || fail "$alg: sign failed"
    "$BIN" client verify --server "unix:$TMP/proto.sock" --token-file "$TMP/tok" --key-id "$id" \
      --in "$TMP/msg" --sig "$TMP/sig" >/dev/null || fail "$alg: a valid signature did not verify"
  done
  printf 'tampered' >>"$TMP/msg"
  rc=0
  "$BIN" client verify --server "unix:$TMP/proto.sock" --token-file "$TMP/tok" --key-id "$id" \
    --in "$TMP/msg" --sig "$TMP/sig" >/dev/null 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "$alg: a tampered message gave exit $rc, not 1"
done
ntt1=$(counter ntt_requests); intt1=$(counter intt_requests); err1=$(counter errors)
echo "socket-demo.sh: $DEVICE/$ACCEL card: ntt requests $ntt0 -> $ntt1, intt requests $intt0 -> $intt1, errors $err0 -> $err1"
echo "socket-demo.sh: card stats $("$BIN" card --stats --socket "$TMP/card.sock")"
[ "$ntt1" -gt "$ntt0" ] && [ "$intt1" -gt "$intt0" ] || fail "the card's NTT counters did not grow"
[ "$err1" = "$err0" ] || fail "the card reported errors"
echo "socket-demo.sh: ok ($((3 * ROUNDS)) signatures signed and verified through the card)"

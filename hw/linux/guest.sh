#!/bin/sh
# hw/linux/guest.sh: the checks run inside the QEMU guest (busybox sh), started by the
# initramfs /init that hw/linux/run.sh builds; /etc/ntt_hw.conf sets MODE (full, short,
# kat), KAT_ALG, KAT_COUNT, PORT. Results go to the console (ttyS0); the .rsp files and
# counters go to the second serial port (ttyS1), between marker lines. Exit status 0
# when every check passed.
. /etc/ntt_hw.conf
FAILS=0
step() { echo "== $*"; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
OUT=/dev/ttyS1
stty -F "$OUT" raw -echo 2>/dev/null

step "load ntt_hw.ko"
insmod /lib/modules/ntt_hw.ko || fail "insmod"
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -c /dev/ntt_hw ] && break; sleep 0.2; done
[ -c /dev/ntt_hw ] || { fail "/dev/ntt_hw missing"; dmesg | tail -20; exit 1; }
dmesg | grep ntt_hw

# The driver's counter NAME from `ntt_hw_test stats` output in $1.
counter() { echo "$1" | sed -n "s/^$2=//p"; }

# Field NAME of the `pqsig DEV: k=v ...` line (PQSIG_NTT_HW_STATS=1) in file $1.
user_count() { sed -n "s/^pqsig [a-z-]*: .*[ ]$2=\([0-9]*\).*/\1/p" "$1" | head -n 1; }

# Runs pqsig through DEVICE and checks that the card served requests with no
# rejection, no card error and no failed request (the library falls back to the CPU
# on a failed request, so an identical result alone would not prove the device did
# the work). Requests through the user-mapped doorbell do not pass the driver: the
# device's own count of them (PQSIG_NTT_HW_STATS) is added.
served_by() {
  dev=$1; shift
  ntt_hw_test reset
  PQSIG_NTT_HW_STATS=1 pqsig --device "$dev" "$@" 2>/tmp/served.err || { cat /tmp/served.err; return 1; }
  grep -v "^pqsig $dev: requests=" /tmp/served.err >&2
  s=$(ntt_hw_test stats)
  bells=$(user_count /tmp/served.err doorbells)
  n=$(( $(counter "$s" percall_requests) + $(counter "$s" pool_requests) + ${bells:-0} ))
  if [ "$n" -eq 0 ] || [ "$(counter "$s" rejected)" != 0 ] || [ "$(counter "$s" card_errors)" != 0 ] \
     || [ "$(user_count /tmp/served.err failures)" != 0 ]; then
    echo "$s" | head -8
    cat /tmp/served.err
    return 1
  fi
  echo "   ($dev: $n requests, ${bells:-0} of them through the doorbell page, 0 rejected)" >&2
}

kat() {
  alg=$1 count=$2
  step "KAT $alg count $count through --device ntt-hw"
  served_by ntt-hw kat --alg "$alg" --count "$count" >/tmp/kat.rsp || fail "kat $alg"
  { echo "KAT_BEGIN $alg"; cat /tmp/kat.rsp; echo "KAT_END $alg"; } >"$OUT"
}

case "$MODE" in
short)
  kat ML-DSA-44 2
  step "bad requests (short)"
  ntt_hw_test short || fail "bad requests"
  step "round trips through the doorbell page (short)"
  ntt_hw_test roundtrip doorbell 2 || fail "doorbell round trips"
  ;;
kat)
  kat "$KAT_ALG" "$KAT_COUNT"
  ;;
full)
  step "bad-request suite"
  ntt_hw_test bad || fail "bad-request suite"
  step "round trips, per-call, pooled by ioctl, pooled through the doorbell page"
  ntt_hw_test roundtrip percall 20 || fail "per-call round trips"
  ntt_hw_test roundtrip pooled 20 || fail "pooled round trips"
  ntt_hw_test roundtrip doorbell 20 || fail "doorbell round trips"
  step "concurrent openers"
  ntt_hw_test concurrent 4 10 || fail "concurrent"
  ntt_hw_test mixed 10 || fail "mixed interfaces at once"
  ntt_hw_test areas || fail "pooled areas"

  step "ML-DSA-65 keygen, sign, verify through both interfaces"
  echo "a message signed through /dev/ntt_hw" >/tmp/msg
  served_by ntt-hw keygen --alg ML-DSA-65 --pk /tmp/k.pk --sk /tmp/k.sk >/dev/null || fail "keygen"
  # Three ways, each one signing process: per-call, pooled with one ioctl per request
  # (PQSIG_NTT_HW_SUBMIT=ioctl), pooled through the doorbell page (the default).
  {
    echo "MEASURE_BEGIN"
    for way in ntt-hw ntt-hw-pooled-ioctl ntt-hw-pooled; do
      dev=${way%-ioctl}
      submit=doorbell; [ "$way" = ntt-hw-pooled-ioctl ] && submit=ioctl
      ntt_hw_test reset
      PQSIG_NTT_HW_SUBMIT=$submit PQSIG_NTT_HW_STATS=1 pqsig --device "$dev" sign --deterministic \
        --alg ML-DSA-65 --sk /tmp/k.sk --in /tmp/msg --out "/tmp/sig.$way" 2>/tmp/user.$way || echo "sign_failed=1"
      ntt_hw_test stats | sed "s/^/$way./"
      sed -n "s/^pqsig $dev: /$way.user: /p" /tmp/user.$way
      pqsig --device "$dev" verify --alg ML-DSA-65 --pk /tmp/k.pk --in /tmp/msg \
        --sig "/tmp/sig.$way" >/dev/null || echo "verify_failed=$way"
      cmp -s "/tmp/sig.$way" /tmp/sig.ntt-hw || echo "signature_differs=$way"
    done
    echo "MEASURE_END"
  } >/tmp/measure
  cat /tmp/measure >"$OUT"
  grep -Eq "_failed|_differs" /tmp/measure && fail "sign/verify round trip"
  # The default pooled way must have used the doorbell page, not fallen back to ioctl.
  grep -q "^ntt-hw-pooled.user: .* doorbells=0 " /tmp/measure && fail "ntt-hw-pooled did not use the doorbell page"
  grep -E "^ntt-hw(-pooled)?(-ioctl)?\.(opens|ioctls|mmaps|percall_requests|pool_requests|user_copies|window_copies|doorbells|rejected)=|user:" /tmp/measure
  for dev in ntt-hw ntt-hw-pooled; do
    served_by "$dev" verify --alg ML-DSA-65 --pk /tmp/k.pk --in /tmp/msg --sig "/tmp/sig.ntt-hw-pooled" \
      >/dev/null || fail "verify through $dev"
  done

  for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87; do kat "$alg" 2; done

  if [ -n "$PORT" ]; then
    step "socket demo: pqsig serve in the guest, pqsig client on the host"
    for m in $(cat /lib/modules/net.order); do insmod "/lib/modules/$m" || fail "insmod $m"; done
    for _ in $(seq 50); do [ -e /sys/class/net/eth0 ] && break; sleep 0.2; done
    ip link set lo up
    ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2 \
      || fail "network"
    cat >/tmp/server.toml <<EOF
listen = "127.0.0.1:8700"
db = "/tmp/pqsig-server.db"
proto_listen = "0.0.0.0:$PORT"

[[token]]
name = "demo"
token = "demo-token-0123456789"
keys = ["*"]
operations = ["sign", "verify", "admin"]
EOF
    ntt_hw_test reset
    pqsig --device ntt-hw serve --config /tmp/server.toml --insecure-dev-key 2>/tmp/serve.log &
    SERVE=$!
    for _ in $(seq 120); do
      wget -q -O /tmp/key.json --header "Authorization: Bearer demo-token-0123456789" \
        --post-data '{"alg":"ML-DSA-65"}' http://127.0.0.1:8700/v1/keys 2>/dev/null && break
      sleep 1
    done
    KEY=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' /tmp/key.json)
    if [ -n "$KEY" ]; then
      echo "SERVE_READY key=$KEY"
      # The host runs its client, then connects here to say it is done.
      nc -l -p $((PORT + 1)) >/dev/null
    else
      fail "serve: no key"
      cat /tmp/serve.log
      echo "SERVE_READY key="
    fi
    s=$(ntt_hw_test stats)
    echo "   service served by the driver: $(counter "$s" percall_requests) per-call requests, $(counter "$s" rejected) rejected"
    [ "$(counter "$s" percall_requests)" -gt 0 ] || fail "the service did not use the driver"
    kill "$SERVE"
    wait "$SERVE" 2>/dev/null
  fi

  step "unload"
  rmmod ntt_hw || fail "rmmod"
  [ -c /dev/ntt_hw ] && fail "/dev/ntt_hw still there after rmmod"
  insmod /lib/modules/ntt_hw.ko || fail "reload"
  ntt_hw_test short || fail "after reload"
  ;;
esac

step "kernel log"
if dmesg | grep -E "WARNING:|BUG:|Oops|Call Trace|general protection"; then
  fail "kernel warnings in dmesg"
else
  echo "dmesg: clean (no kernel warnings)"
fi
[ "$MODE" = full ] || rmmod ntt_hw || fail "rmmod"
echo "guest: $FAILS failures"
[ "$FAILS" = 0 ]

#!/usr/bin/env bash
# hw/linux/run.sh: boots Debian's kernel under QEMU with the NTT card behind an
# ivshmem-plain PCI device, loads the ntt_hw driver and runs the checks in the guest.
#
#   hw/linux/run.sh                        full form: bad-request suite, round trips
#                                          (per-call, pooled, concurrent), ML-DSA sign/
#                                          verify through both interfaces with counts,
#                                          KAT ML-DSA-44/65/87 (count 2) compared with
#                                          the host, socket demo, clean unload
#   hw/linux/run.sh --short                CI form: boot, load, ML-DSA-44 KAT count 2
#                                          compared with the host, one bad request
#   hw/linux/run.sh --kat ALG --count N OUT
#                                          writes to OUT the .rsp that
#                                          `pqsig --device ntt-hw kat --alg ALG --count N`
#                                          produced in the guest
#   options: --measure FILE (full form: the driver's counters per ML-DSA-65 signature,
#            key=value, to FILE), --keep (keep the work folder)
#
# Exit status 0 when every check passed; 1 on any failure (guest marker missing or
# FAIL, kernel WARN/BUG/Oops in dmesg, KAT mismatch); 2 on a usage error; 3 when the
# kernel, headers, QEMU or busybox-static are missing.
#
# Environment: KVER (kernel version; default: the newest /boot/vmlinuz-* whose headers
# are installed), NTT_HW_ACCEL (kvm|tcg; default: KVM when a probe guest boots on it,
# else TCG), PQSIG_GUEST_BIN (a pqsig to use instead of building a static one: if it is
# dynamically linked, its loader and libraries (ldd) go into the initramfs too: the CI
# short form reuses the release build it has), CARGO_TARGET_DIR, CARGO_JOBS,
# NTT_HW_TIMEOUT (seconds for the guest, default 1200).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

MODE=full
KAT_ALG="" KAT_COUNT="" KAT_OUT="" MEASURE="" KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --short) MODE=short; shift ;;
    --kat) MODE=kat; KAT_ALG="${2:?--kat ALG}"; shift 2 ;;
    --count) KAT_COUNT="${2:?--count N}"; shift 2 ;;
    --measure) MEASURE="${2:?--measure FILE}"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) if [ "$MODE" = kat ] && [ -z "$KAT_OUT" ]; then KAT_OUT="$1"; shift;
       else echo "run.sh: unexpected argument $1" >&2; exit 2; fi ;;
  esac
done
if [ "$MODE" = kat ]; then
  [ -n "$KAT_COUNT" ] && [ -n "$KAT_OUT" ] || { echo "usage: run.sh --kat ALG --count N OUT" >&2; exit 2; }
  case "$KAT_COUNT" in ''|*[!0-9]*) echo "run.sh: --count wants a number" >&2; exit 2 ;; esac
  case "$KAT_ALG" in ML-DSA-44|ML-DSA-65|ML-DSA-87) ;;
    *) echo "run.sh: --kat takes ML-DSA-44, ML-DSA-65 or ML-DSA-87 (the driver does ML-DSA only)" >&2; exit 2 ;;
  esac
fi

say() { echo "run.sh: $*" >&2; }

# --- What is needed on the host ------------------------------------------------------
missing() { say "missing: $*"; exit 3; }
command -v qemu-system-x86_64 >/dev/null || missing "qemu-system-x86_64 (qemu-system-x86)"
BUSYBOX=/bin/busybox
[ -x "$BUSYBOX" ] && readelf -l "$BUSYBOX" 2>/dev/null | grep -q INTERP && BUSYBOX=""
[ -x "${BUSYBOX:-/nonexistent}" ] || missing "a static /bin/busybox (busybox-static)"
if [ -z "${KVER:-}" ]; then
  for k in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V -r); do
    if [ -d "/lib/modules/$k/build" ]; then KVER=$k; break; fi
  done
fi
[ -n "${KVER:-}" ] || missing "a /boot/vmlinuz-* with matching /lib/modules/*/build (linux-image-amd64 + linux-headers-amd64)"
VMLINUZ=/boot/vmlinuz-$KVER
[ -r "$VMLINUZ" ] || missing "$VMLINUZ readable"
command -v cpio >/dev/null || missing cpio

WORK="$(mktemp -d /tmp/ntt-hw.XXXXXX)"
SHM="/dev/shm/pqsig-ivshmem-$$"
CARD_PID=""
cleanup() {
  [ -n "$CARD_PID" ] && kill "$CARD_PID" 2>/dev/null && wait "$CARD_PID" 2>/dev/null
  rm -f "$SHM"
  if [ "$KEEP" = 1 ]; then say "work folder kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# --- Builds: module, C test, static pqsig --------------------------------------------
say "kernel $KVER"
mkdir -p "$WORK/mod"
cp "$HERE/ntt_hw.c" "$HERE/ntt_hw.h" "$HERE/Kbuild" "$WORK/mod/"
make -s -C "/lib/modules/$KVER/build" M="$WORK/mod" modules >"$WORK/mod.log" 2>&1 \
  || { cat "$WORK/mod.log" >&2; say "module build failed"; exit 1; }
cc -static -O2 -Wall -I"$HERE" -o "$WORK/ntt_hw_test" "$HERE/ntt_hw_test.c" \
  || { say "test program build failed (needs libc6-dev's static libc)"; exit 1; }

PQSIG="${PQSIG_GUEST_BIN:-}"
if [ -z "$PQSIG" ]; then
  # glibc static (crt-static): needs nothing beyond libc6-dev; the profile settings make
  # it a quick build (no LTO, parallel codegen, no debug info).
  TGT="${CARGO_TARGET_DIR:-$ROOT/target}"
  say "building a static pqsig (cargo, target x86_64-unknown-linux-gnu, crt-static)"
  (cd "$ROOT" && RUSTFLAGS="-C target-feature=+crt-static" \
     CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
     CARGO_PROFILE_RELEASE_DEBUG=0 \
     cargo build --release ${CARGO_JOBS:+-j "$CARGO_JOBS"} -q -p pqsig-cli \
       --target x86_64-unknown-linux-gnu) || { say "static pqsig build failed"; exit 1; }
  PQSIG="$TGT/x86_64-unknown-linux-gnu/release/pqsig"
fi
[ -x "$PQSIG" ] || { say "no pqsig binary at $PQSIG"; exit 1; }
if readelf -l "$PQSIG" | grep -q INTERP; then
  say "pqsig for the guest: $PQSIG (dynamically linked: its libraries go into the initramfs)"
  PQSIG_LIBS=$(ldd "$PQSIG" | grep -o '/[^ ]*' | sort -u)
else
  say "pqsig for the guest: $PQSIG (statically linked)"
  PQSIG_LIBS=""
fi

# --- Accelerator: KVM only when a probe guest actually runs --------------------------
kvm_works() {
  [ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
  # Some hosts start KVM guests that then hang: boot the real kernel on a one-line
  # initramfs that prints a marker and powers off; KVM only if that finishes in time.
  local p="$WORK/probe"
  mkdir -p "$p/bin"
  cp "$BUSYBOX" "$p/bin/busybox"
  printf '#!/bin/busybox sh\n/bin/busybox echo KVM_PROBE_OK\n/bin/busybox poweroff -f\n' >"$p/init"
  chmod +x "$p/init"
  (cd "$p" && find . | cpio -o -H newc --quiet | gzip -1 >"$WORK/probe.gz")
  timeout 15 qemu-system-x86_64 -accel kvm -m 256 -display none -nodefaults -no-reboot \
    -kernel "$VMLINUZ" -initrd "$WORK/probe.gz" -append "console=ttyS0 quiet panic=-1" \
    -serial "file:$WORK/probe.log" >/dev/null 2>&1 || true
  grep -q KVM_PROBE_OK "$WORK/probe.log" 2>/dev/null
}
ACCEL="${NTT_HW_ACCEL:-}"
if [ -z "$ACCEL" ]; then
  if kvm_works; then ACCEL=kvm; else ACCEL=tcg; KVM_WHY="unusable: no /dev/kvm or the probe guest did not boot in 15 s"; fi
fi
case "$ACCEL" in
  kvm) say "accelerator: KVM (a probe guest booted on /dev/kvm)" ;;
  tcg) say "accelerator: TCG (KVM ${KVM_WHY:-not probed}; emulated: guest times are not hardware times)" ;;
  *) say "NTT_HW_ACCEL must be kvm or tcg"; exit 2 ;;
esac

# --- Initramfs -----------------------------------------------------------------------
R="$WORK/root"
mkdir -p "$R"/{bin,sbin,etc,proc,sys,dev,tmp,lib/modules,root}
cp "$BUSYBOX" "$R/bin/busybox"
cp "$WORK/mod/ntt_hw.ko" "$R/lib/modules/"
cp "$WORK/ntt_hw_test" "$R/bin/"
cp "$PQSIG" "$R/bin/pqsig"
strip "$R/bin/pqsig" 2>/dev/null || true
for lib in $PQSIG_LIBS; do
  mkdir -p "$R$(dirname "$lib")"
  cp -L "$lib" "$R$lib"
done
cp "$HERE/guest.sh" "$R/guest.sh"
PORT=""
if [ "$MODE" = full ]; then
  # User networking for the socket demo: virtio-net and its module dependencies.
  MODDIR="/lib/modules/$KVER"
  for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci failover net_failover virtio_net; do
    f=$(find "$MODDIR/kernel" -name "$m.ko*" | head -n 1)
    [ -n "$f" ] && cp "$f" "$R/lib/modules/" && echo "${f##*/}" >>"$R/lib/modules/net.order"
  done
  PORT=$(( 20000 + $$ % 20000 ))
fi
cat >"$R/etc/ntt_hw.conf" <<EOF
MODE=$MODE
KAT_ALG=$KAT_ALG
KAT_COUNT=$KAT_COUNT
PORT=$PORT
EOF
cat >"$R/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
sh /guest.sh
echo "NTT_HW_GUEST_EXIT=$?"
sync
poweroff -f
EOF
chmod +x "$R/init" "$R/guest.sh"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1 >"$WORK/initrd.gz")

# --- Card on the host, then the guest ------------------------------------------------
"$PQSIG" card --accel timed --ivshmem "$SHM" 2>"$WORK/card.log" &
CARD_PID=$!
for _ in $(seq 100); do grep -q "on ivshmem" "$WORK/card.log" && break; sleep 0.1; done
grep -q "on ivshmem" "$WORK/card.log" || { cat "$WORK/card.log" >&2; say "card did not start"; exit 1; }

NET=(-nic none)
[ -n "$PORT" ] && NET=(-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$PORT-:$PORT,hostfwd=tcp:127.0.0.1:$((PORT + 1))-:$((PORT + 1))" \
  -device virtio-net-pci,netdev=n0)
say "booting the guest (console log: $WORK/console.log)"
timeout "${NTT_HW_TIMEOUT:-1200}" qemu-system-x86_64 -accel "$ACCEL" -m 1024 -smp 1 \
  -display none -nodefaults -no-reboot \
  -kernel "$VMLINUZ" -initrd "$WORK/initrd.gz" \
  -append "console=ttyS0 loglevel=4 panic=-1 oops=panic" \
  -serial "file:$WORK/console.log" -serial "file:$WORK/out.bin" \
  -object "memory-backend-file,id=shm0,share=on,mem-path=$SHM,size=4M" \
  -device ivshmem-plain,memdev=shm0 \
  "${NET[@]}" &
QEMU_PID=$!

if [ -n "$PORT" ]; then
  # The socket demo: the service runs in the guest (with --device ntt-hw), `pqsig
  # client` here, over QEMU user networking forwarded to a loopback port.
  for _ in $(seq 2400); do
    grep -q "SERVE_READY" "$WORK/console.log" 2>/dev/null && break
    kill -0 "$QEMU_PID" 2>/dev/null || break
    sleep 0.5
  done
  KEY=$(tr -d '\r' <"$WORK/console.log" | sed -n 's/^SERVE_READY key=//p' | head -n 1)
  demo=FAIL
  if [ -n "$KEY" ]; then
    echo "socket demo across the VM boundary" >"$WORK/msg"
    echo demo-token-0123456789 >"$WORK/token"
    C=(--server "tcp://127.0.0.1:$PORT" --token-file "$WORK/token" --timeout 300)
    if "$PQSIG" client sign "${C[@]}" --key-id "$KEY" --in "$WORK/msg" --out "$WORK/sig" >"$WORK/demo.log" 2>&1 \
       && "$PQSIG" client verify "${C[@]}" --key-id "$KEY" --in "$WORK/msg" --sig "$WORK/sig" >>"$WORK/demo.log" 2>&1; then
      demo=ok
    fi
    say "socket demo (service in the guest, client on the host, 127.0.0.1:$PORT): $demo"
    [ "$demo" = ok ] || cat "$WORK/demo.log" >&2
  fi
  echo "$demo" >"$WORK/demo.result"
  # Tell the guest the client is done (it listens on the next forwarded port).
  for _ in 1 2 3 4 5; do
    (exec 3<>"/dev/tcp/127.0.0.1/$((PORT + 1))" && echo done >&3) 2>/dev/null && break
    sleep 1
  done
fi
rc=0
wait "$QEMU_PID" || rc=$?
[ "$rc" = 124 ] && say "guest timed out"
sed 's/\r$//' "$WORK/console.log" | grep -v '^$' | sed 's/^/guest| /' >&2 || true

fail=0
grep -q "^NTT_HW_GUEST_EXIT=0" <(tr -d '\r' <"$WORK/console.log") || { say "FAIL: guest checks"; fail=1; }
if tr -d '\r' <"$WORK/console.log" | grep -Eq "WARNING:|BUG:|Oops|Call Trace|general protection"; then
  say "FAIL: kernel warning or oops on the console"; fail=1
fi
if [ -n "$PORT" ] && [ "$(cat "$WORK/demo.result" 2>/dev/null)" != ok ]; then
  say "FAIL: socket demo"; fail=1
fi

# The guest's .rsp came out on its second serial port: sha256 line + the file.
extract_kat() {
  local alg=$1 out=$2
  awk -v a="KAT_BEGIN $alg" -v b="KAT_END $alg" '$0==b{p=0} p{print} $0==a{p=1}' "$WORK/out.bin" >"$out"
}
kat_check() {
  local alg=$1 count=$2 got="$WORK/guest-$1.rsp" want="$WORK/host-$1.rsp"
  extract_kat "$alg" "$got"
  "$PQSIG" kat --alg "$alg" --count "$count" >"$want"
  if [ -s "$got" ] && cmp -s "$got" "$want"; then
    say "KAT $alg count $count: guest (--device ntt-hw) = host (CPU), $(wc -c <"$got") bytes"
  else
    say "FAIL: KAT $alg count $count differs between guest and host"; fail=1
  fi
}
case "$MODE" in
  short) kat_check ML-DSA-44 2 ;;
  full) for a in ML-DSA-44 ML-DSA-65 ML-DSA-87; do kat_check "$a" 2; done ;;
  kat)
    extract_kat "$KAT_ALG" "$WORK/guest.rsp"
    if [ -s "$WORK/guest.rsp" ] && [ "$fail" = 0 ]; then
      cp "$WORK/guest.rsp" "$KAT_OUT"; say "wrote $KAT_OUT"
    else
      say "FAIL: no .rsp from the guest"; fail=1
    fi ;;
esac
if [ -n "$MEASURE" ]; then
  awk '/^MEASURE_BEGIN/{p=1;next} /^MEASURE_END/{p=0} p' "$WORK/out.bin" >"$MEASURE"
  say "counters written to $MEASURE"
fi
if [ "$fail" = 0 ]; then say "PASS ($MODE, $ACCEL)"; else say "FAILED ($MODE, $ACCEL)"; fi
exit "$fail"

//! Constant-time check of whole operations under valgrind memcheck: key generation and
//! signing of every scheme, per backend (issue 20 item 10).
//!
//! `ct_check.rs` checks kernels one by one; this program runs the public operations end
//! to end. The secret inputs are poisoned at entry (memcheck client request
//! MAKE_MEM_UNDEFINED): the key-generation seed (for SNOVA only `s_priv`, as `s_pub` is
//! part of the public key) and every byte the signer draws from its RNG (ML-DSA's rnd,
//! Falcon's nonce and sampler seed, FN-DSA's signing seed, SNOVA's salt). Everything
//! computed from them stays undefined for memcheck, so the secret key and every signing
//! intermediate are secret too, and memcheck reports each conditional jump and each
//! memory address that depends on them. The library marks the values that are public by
//! the scheme's design as defined at the narrowest point (`ct::public`, compiled in by
//! feature `ct-check`); each such call site is listed with its justification in
//! docs/ARCHITECTURE.md ("Declassifications in the library"). The harness itself only
//! declassifies outputs after an operation returns: the public key and the signature.
//!
//! Build and run (scripts/test-all.sh stage 5 runs the short form):
//! ```text
//! cargo build --release -p pqsig --example ct_whole --features ct-check
//! valgrind --error-exitcode=1 target/release/examples/ct_whole            # short form
//! valgrind --error-exitcode=1 target/release/examples/ct_whole --full     # every set
//! valgrind -q --log-file=/dev/null target/release/examples/ct_whole --canary
//! ```
//! `scripts/ct-whole.sh` runs the full form in both `Fpr` builds.
//!
//! Forms: the short form runs one key generation and one signature per scheme family
//! (ML-DSA-44, Falcon-512, FN-DSA-512, SNOVA_I_S) on each backend valgrind can run
//! (portable, avx2; valgrind's CPUID hides AVX-512). `--full` runs all 27 algorithms.
//! `--alg NAME` (repeatable) and `--backend NAME` narrow the run, for diagnosis.
//!
//! Every operation is checked: there are no open findings since the AVX2 look-ahead
//! samplers declassify only their documented decisions (docs/ARCHITECTURE.md).
//!
//! The per-operation figures printed are the growth of memcheck's error count during
//! the operation (memcheck may fold repeats of one report); the run fails on any error.
//!
//! `--canary` checks that the harness can fail at all: it generates an ML-DSA-44 key and
//! a signature from poisoned inputs, then branches on a secret-key byte and on a byte
//! of the (not yet declassified) signature's response z, and on a byte of a SNOVA_I_S
//! signature; memcheck must flag each. This also proves that the poison reaches the
//! outputs through the whole operation.
//!
//! Outside valgrind the client requests are no-ops and the run is a functional smoke
//! test (every signature is verified).

#[path = "ct_check/valgrind.rs"]
mod valgrind;

use pqsig::any::SigningKey;
use pqsig::falcon::{FnDsaParamSet, ParamSet as FalconParamSet};
use pqsig::mldsa::ParamSet as MlDsaParamSet;
use pqsig::snova::ParamSet as SnovaParamSet;
use pqsig::{Algorithm, Backend};
use std::hint::black_box;
use std::time::Instant;
use valgrind as vg;

/// The short form: one parameter set per scheme family.
const SHORT: &[Algorithm] = &[
    Algorithm::MlDsa(MlDsaParamSet::MlDsa44),
    Algorithm::Falcon(FalconParamSet::Falcon512),
    Algorithm::FnDsa(FnDsaParamSet::FnDsa512),
    Algorithm::Snova(SnovaParamSet::SnovaIS),
];

/// A deterministic RNG (xorshift64*) whose every output byte is poisoned: the signer's
/// randomness is secret.
struct PoisonRng(u64);

impl PoisonRng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Deterministic bytes, not poisoned (seeds are poisoned by the caller).
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

impl rand_core::RngCore for PoisonRng {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for d in dest.iter_mut() {
            *d = self.next() as u8;
        }
        vg::poison(dest);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl rand_core::CryptoRng for PoisonRng {}

/// The secret part of a key-generation seed (SNOVA: `s_priv` after the 16-byte `s_pub`).
fn secret_part(alg: Algorithm, seed: &mut [u8]) -> &mut [u8] {
    match alg {
        // `s_pub ‖ s_priv`: SEED_LEN − 32 = 16 public bytes first.
        Algorithm::Snova(_) => &mut seed[pqsig::snova::SEED_LEN - 32..],
        _ => seed,
    }
}

/// Memcheck errors counted during one operation.
struct Outcome {
    keygen_errors: usize,
    sign_errors: usize,
    keygen_s: f64,
    sign_s: f64,
}

/// Key generation then one signature of `alg` on backend `b`, secrets poisoned.
fn check_one(alg: Algorithm, b: Backend, rng: &mut PoisonRng) -> Outcome {
    let mut seed = rng.bytes(alg.seed_len());
    vg::poison(secret_part(alg, &mut seed));

    let e0 = vg::error_count();
    let t = Instant::now();
    let sk = SigningKey::from_seed_on(alg, black_box(&seed), b)
        .unwrap_or_else(|e| panic!("{}: key generation failed: {e:?}", alg.name()));
    let vk = sk.verifying_key();
    let keygen_s = t.elapsed().as_secs_f64();
    let e1 = vg::error_count();
    // The public key is an output: public.
    vg::unpoison_ref(vk.to_bytes());

    let msg = b"ct_whole: a public message";
    let e2 = vg::error_count();
    let t = Instant::now();
    let mut sig = sk
        .sign_with_rng(rng, black_box(msg), b"")
        .unwrap_or_else(|e| panic!("{}: signing failed: {e:?}", alg.name()));
    let sign_s = t.elapsed().as_secs_f64();
    let e3 = vg::error_count();
    // The signature is an output: public.
    vg::unpoison(&mut sig[..]);
    vk.verify(msg, b"", &sig)
        .unwrap_or_else(|e| panic!("{}: the signature does not verify: {e:?}", alg.name()));
    Outcome {
        keygen_errors: e1 - e0,
        sign_errors: e3 - e2,
        keygen_s,
        sign_s,
    }
}

/// Branches on secrets derived through whole operations on purpose: memcheck must flag
/// every branch.
fn canary() -> ! {
    if vg::running() == 0 {
        eprintln!("ct_whole --canary: not running under valgrind; nothing to check");
        std::process::exit(2);
    }
    #[inline(never)]
    fn taken(what: &str) {
        black_box(());
        println!("ct_whole --canary: took the branch on {what}");
    }
    let alg = Algorithm::MlDsa(MlDsaParamSet::MlDsa44);
    let mut rng = PoisonRng(0x0123_4567_89AB_CDEF);
    let mut seed = rng.bytes(alg.seed_len());
    vg::poison(&mut seed[..]);
    let sk = SigningKey::from_seed(alg, &seed).expect("ML-DSA key generation");
    let sk_bytes = sk.to_bytes();
    let sig = sk
        .sign_with_rng(&mut rng, b"canary", b"")
        .expect("ML-DSA signing");
    // SNOVA too: its signature (x_v, x_o) derives from the poisoned private seed.
    let snova = Algorithm::Snova(SnovaParamSet::SnovaIS);
    let mut seed = rng.bytes(snova.seed_len());
    vg::poison(secret_part(snova, &mut seed));
    let snova_sig = SigningKey::from_seed(snova, &seed)
        .and_then(|k| k.sign_with_rng(&mut rng, b"canary", b""))
        .expect("SNOVA signing");
    let mut flagged = 0;
    // Byte 200 of the expanded key lies in s1; byte 100 of the signature in z.
    let probes = [
        ("an ML-DSA secret-key byte", sk_bytes[200]),
        ("an ML-DSA signature byte", sig[100]),
        ("a SNOVA signature byte", snova_sig[10]),
    ];
    for (what, byte) in probes {
        let before = vg::error_count();
        if black_box(byte) & 1 == 1 {
            taken(what);
        }
        if vg::error_count() > before {
            flagged += 1;
        } else {
            eprintln!("ct_whole --canary: memcheck did NOT flag the branch on {what}");
        }
    }
    if flagged == probes.len() {
        println!("ct_whole --canary: memcheck flagged every deliberate secret branch (as it must)");
        std::process::exit(0);
    }
    std::process::exit(1);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--canary") {
        canary();
    }
    let mut algs: Vec<Algorithm> = Vec::new();
    let mut backends: Vec<Backend> = Backend::available().collect();
    let mut it = args.iter();
    let mut full = false;
    while let Some(a) = it.next() {
        match a.as_str() {
            "--full" => full = true,
            "--alg" => {
                let name = it.next().expect("--alg NAME");
                algs.push(Algorithm::from_name(name).expect("a known algorithm"));
            }
            "--backend" => {
                let name = it.next().expect("--backend NAME");
                let b = Backend::from_name(name).expect("a known backend");
                assert!(b.is_available(), "backend {name} is not available here");
                backends = vec![b];
            }
            other => {
                panic!("unknown argument {other} (--full, --alg NAME, --backend NAME, --canary)")
            }
        }
    }
    if algs.is_empty() {
        algs = if full {
            Algorithm::ALL.to_vec()
        } else {
            SHORT.to_vec()
        };
    }
    let under = vg::running() > 0;
    println!(
        "ct_whole: {} ({} algorithm(s), backends: {})",
        if under {
            "under valgrind memcheck; seeds and signing randomness poisoned"
        } else {
            "not under valgrind; functional run only (no constant-time check)"
        },
        algs.len(),
        backends
            .iter()
            .map(|b| b.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if under && !Backend::Avx512.is_available() {
        println!("  avx512: not available (valgrind's CPUID hides AVX-512), skipped");
    }
    let start = Instant::now();
    let mut rng = PoisonRng(0x9E37_79B9_7F4A_7C15);
    let mut failed = Vec::new();
    for &alg in &algs {
        for &b in &backends {
            let o = check_one(alg, b, &mut rng);
            println!(
                "  {:<18} {:<8} keygen {} error(s) ({:.2} s), sign {} error(s) ({:.2} s)",
                alg.name(),
                b.name(),
                o.keygen_errors,
                o.keygen_s,
                o.sign_errors,
                o.sign_s
            );
            if o.keygen_errors + o.sign_errors > 0 {
                failed.push(format!("{} {}", alg.name(), b.name()));
            }
        }
    }
    let errors = vg::error_count();
    if errors > 0 {
        eprintln!(
            "ct_whole: FAILED: memcheck reported {errors} error(s) (secret-dependent branch or \
             memory index; see the reports above) in: {}",
            failed.join(", ")
        );
        std::process::exit(1);
    }
    println!(
        "ct_whole: ok ({:.2} s{})",
        start.elapsed().as_secs_f64(),
        if under { ", under valgrind" } else { "" }
    );
}

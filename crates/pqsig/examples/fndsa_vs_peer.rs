//! FN-DSA (draft): pqsig against the `fn-dsa` 0.4.0 crate in one process, interleaved.
//!
//! `cargo run --release -p pqsig --example fndsa_vs_peer [-- ROUNDS [OPS]]`
//! OPS is a comma-separated subset of `keygen,sign,signb,verify,verifyb` (default: all);
//! also `skdec` (pqsig's signing-key decoding alone), `parts` (pqsig component timings)
//! and `keccak` (SHAKE256 block cost of both crates). Environment: `LOGN=9,10` picks
//! the degrees, `ONLY=mine|theirs` times one side only (for profiling),
//! `PQSIG_BACKEND` the pqsig backend. Times are per-thread CPU time (Linux), so a
//! busy machine inflates them less than wall time.
//!
//! Each round times every operation once per implementation (a few calls each, on the
//! same keys, messages and randomness), alternating which side goes first; the report
//! gives the median per-call time over the rounds and the ratio pqsig / fn-dsa.
//! "sign"/"verify" use decoded key objects on both sides; "signb"/"verifyb" decode
//! pqsig's key from bytes on every call and compare with fn-dsa's object API (what the
//! bench harness's `bytes` rows do); fn-dsa from bytes is shown for information.

use fn_dsa::{
    sign_key_size, signature_size, vrfy_key_size, CryptoRng, KeyPairGenerator,
    KeyPairGeneratorStandard, RngCore, RngError, SigningKey as _, SigningKeyStandard,
    VerifyingKey as _, VerifyingKeyStandard, DOMAIN_NONE, HASH_ID_RAW,
};
use pqsig::falcon::fndsa;
use std::hint::black_box;
use std::time::Instant;

struct Replay<'a>(&'a [u8]);
impl CryptoRng for Replay<'_> {}
impl RngCore for Replay<'_> {
    fn next_u32(&mut self) -> u32 {
        unimplemented!()
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let (a, b) = self.0.split_at(dest.len());
        dest.copy_from_slice(a);
        self.0 = b;
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clk: i32, ts: *mut Timespec) -> i32;
}

/// CPU time of this thread in ns (Linux: CLOCK_THREAD_CPUTIME_ID), so that time spent
/// descheduled on a shared machine is not counted; wall time elsewhere.
fn now_ns() -> f64 {
    if cfg!(target_os = "linux") {
        let mut ts = Timespec { sec: 0, nsec: 0 };
        // SAFETY: plain libc call writing into a valid timespec.
        let r = unsafe { clock_gettime(3, &mut ts) };
        if r == 0 {
            return ts.sec as f64 * 1e9 + ts.nsec as f64;
        }
    }
    thread_local!(static T0: Instant = Instant::now());
    T0.with(|t| t.elapsed().as_nanos() as f64)
}

/// Mean time per call in µs of `reps` calls of `f(i)`.
fn time(reps: usize, mut f: impl FnMut(usize)) -> f64 {
    let t = now_ns();
    for i in 0..reps {
        f(i);
    }
    (now_ns() - t) / 1e3 / reps as f64
}

const KEYS: usize = 4;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(15);
    let ops: Vec<String> = args
        .get(2)
        .map(|s| s.split(',').map(String::from).collect())
        .unwrap_or_else(|| {
            ["keygen", "sign", "signb", "verify", "verifyb"]
                .iter()
                .map(|s| s.to_string())
                .collect()
        });
    let logns: Vec<u32> = std::env::var("LOGN")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or(vec![9, 10]);
    // ONLY=mine / ONLY=theirs: time one side only (for profiling).
    let only = std::env::var("ONLY").ok();
    println!("backend {:?}, {} rounds", pqsig::backend::active(), rounds);
    if ops.iter().any(|o| o == "keccak") {
        // SHAKE256 over a 32-byte input, 136·64 bytes squeezed: per-block cost.
        let mut buf = vec![0u8; 136 * 64];
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            a.push(
                time(50, |_| {
                    let mut h = pqsig::kernels::keccak::sponge::Shake256::new();
                    h.absorb(&[1u8; 32]);
                    h.squeeze(&mut buf);
                    black_box(&buf);
                }) / 64.0,
            );
            b.push(
                time(50, |_| {
                    let mut h = fn_dsa::SHAKE256::new();
                    h.inject(&[1u8; 32]);
                    h.flip();
                    h.extract(&mut buf);
                    black_box(&buf);
                }) / 64.0,
            );
        }
        println!(
            "keccak block: pqsig {:.3} µs, fn-dsa {:.3} µs",
            median(&mut a),
            median(&mut b)
        );
        return;
    }
    for logn in logns {
        let seeds: Vec<Vec<u8>> = (0..KEYS).map(|k| bytes(100 + k as u64, 32)).collect();
        let msgs: Vec<Vec<u8>> = (0..KEYS).map(|k| bytes(200 + k as u64, 64)).collect();
        let rands: Vec<Vec<u8>> = (0..KEYS).map(|k| bytes(300 + k as u64, 40)).collect();
        let mut kgen = Box::<KeyPairGeneratorStandard>::default();
        let mut their_sk_bytes = Vec::new();
        let mut their_vk_bytes = Vec::new();
        for s in &seeds {
            let mut sk = vec![0u8; sign_key_size(logn)];
            let mut vk = vec![0u8; vrfy_key_size(logn)];
            kgen.keygen(logn, &mut Replay(s), &mut sk, &mut vk);
            their_sk_bytes.push(sk);
            their_vk_bytes.push(vk);
        }
        let ours: Vec<(fndsa::SigningKey, fndsa::VerifyingKey)> = seeds
            .iter()
            .map(|s| fndsa::keygen_from_seed(logn, s).unwrap())
            .collect();
        for k in 0..KEYS {
            assert_eq!(ours[k].0.to_bytes(), &their_sk_bytes[k][..], "same sk");
            assert_eq!(ours[k].1.to_bytes(), &their_vk_bytes[k][..], "same vk");
        }
        let mut their_sks: Vec<Box<SigningKeyStandard>> = their_sk_bytes
            .iter()
            .map(|b| Box::new(SigningKeyStandard::decode(b).unwrap()))
            .collect();
        let their_vks: Vec<VerifyingKeyStandard> = their_vk_bytes
            .iter()
            .map(|b| VerifyingKeyStandard::decode(b).unwrap())
            .collect();
        let sigs: Vec<Vec<u8>> = (0..KEYS)
            .map(|k| ours[k].0.sign_with_seed(&msgs[k], b"", &rands[k]).unwrap())
            .collect();
        for k in 0..KEYS {
            let mut sig = vec![0u8; signature_size(logn)];
            their_sks[k]
                .sign(
                    &mut Replay(&rands[k]),
                    &DOMAIN_NONE,
                    &HASH_ID_RAW,
                    &msgs[k],
                    &mut sig,
                )
                .unwrap();
            assert_eq!(sig, sigs[k], "same signature");
        }

        println!("FN-DSA-{}:", 1 << logn);
        if ops.iter().any(|o| o == "parts") {
            let n = 1usize << logn;
            let sig = &sigs[0];
            let mut s2 = vec![0i16; n];
            let mut c = vec![0u16; n];
            let nonce: [u8; 40] = sig[1..41].try_into().unwrap();
            let mu = [7u8; 64];
            let (mut a, mut b, mut d, mut e) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut g = Vec::new();
            for _ in 0..rounds {
                a.push(time(200, |_| {
                    assert!(pqsig::kernels::internals::fndsa::comp_decode(
                        black_box(&sig[41..]),
                        &mut s2
                    ));
                }));
                b.push(time(200, |_| {
                    pqsig::kernels::internals::fndsa::hash_to_point(black_box(&nonce), &mu, &mut c);
                }));
                d.push(time(200, |_| {
                    black_box(
                        fndsa::VerifyingKey::from_bytes(black_box(&their_vk_bytes[0])).unwrap(),
                    );
                }));
                e.push(time(200, |_| {
                    black_box(fndsa::hash_vrfy_key(black_box(&their_vk_bytes[0])));
                }));
                g.push(time(50, |_| {
                    black_box(
                        fndsa::SigningKey::from_bytes(black_box(&their_sk_bytes[0])).unwrap(),
                    );
                }));
            }
            println!(
                "  comp_decode {:.2} µs, hash_to_point {:.2} µs, vk from_bytes {:.2} µs (hash {:.2}), sk from_bytes {:.2} µs",
                median(&mut a),
                median(&mut b),
                median(&mut d),
                median(&mut e),
                median(&mut g)
            );
            continue;
        }
        for op in &ops {
            let reps = match op.as_str() {
                "keygen" => KEYS,
                "sign" | "signb" => 8,
                _ => 64,
            };
            let mut mine = Vec::new();
            let mut theirs = Vec::new();
            let mut theirs_b = Vec::new();
            for r in 0..rounds {
                let run_mine = || match op.as_str() {
                    "keygen" => time(reps, |i| {
                        black_box(fndsa::keygen_from_seed(logn, &seeds[i % KEYS]).unwrap());
                    }),
                    "sign" => time(reps, |i| {
                        let k = i % KEYS;
                        black_box(ours[k].0.sign_with_seed(&msgs[k], b"", &rands[k]).unwrap());
                    }),
                    "signb" => time(reps, |i| {
                        let k = i % KEYS;
                        let sk = fndsa::SigningKey::from_bytes(&their_sk_bytes[k]).unwrap();
                        black_box(sk.sign_with_seed(&msgs[k], b"", &rands[k]).unwrap());
                    }),
                    "skdec" => time(reps, |i| {
                        let k = i % KEYS;
                        black_box(fndsa::SigningKey::from_bytes(&their_sk_bytes[k]).unwrap());
                    }),
                    "verify" => time(reps, |i| {
                        let k = i % KEYS;
                        ours[k].1.verify(&msgs[k], b"", &sigs[k]).unwrap();
                    }),
                    "verifyb" => time(reps, |i| {
                        let k = i % KEYS;
                        let vk = fndsa::VerifyingKey::from_bytes(&their_vk_bytes[k]).unwrap();
                        vk.verify(&msgs[k], b"", &sigs[k]).unwrap();
                    }),
                    _ => panic!("unknown op {op}"),
                };
                let mut run_theirs = |sks: &mut Vec<Box<SigningKeyStandard>>| match op.as_str() {
                    "keygen" => time(reps, |i| {
                        let mut sk = vec![0u8; sign_key_size(logn)];
                        let mut vk = vec![0u8; vrfy_key_size(logn)];
                        kgen.keygen(logn, &mut Replay(&seeds[i % KEYS]), &mut sk, &mut vk);
                        black_box((sk, vk));
                    }),
                    "sign" | "signb" => time(reps, |i| {
                        let k = i % KEYS;
                        let mut sig = vec![0u8; signature_size(logn)];
                        sks[k]
                            .sign(
                                &mut Replay(&rands[k]),
                                &DOMAIN_NONE,
                                &HASH_ID_RAW,
                                &msgs[k],
                                &mut sig,
                            )
                            .unwrap();
                        black_box(sig);
                    }),
                    _ => time(reps, |i| {
                        let k = i % KEYS;
                        assert!(their_vks[k].verify(
                            &sigs[k],
                            &DOMAIN_NONE,
                            &HASH_ID_RAW,
                            &msgs[k]
                        ));
                    }),
                };
                if only.as_deref() == Some("mine") {
                    mine.push(run_mine());
                    theirs.push(1.0);
                    continue;
                }
                if only.as_deref() == Some("theirs") {
                    mine.push(1.0);
                    theirs.push(run_theirs(&mut their_sks));
                    continue;
                }
                if r % 2 == 0 {
                    mine.push(run_mine());
                    theirs.push(run_theirs(&mut their_sks));
                } else {
                    theirs.push(run_theirs(&mut their_sks));
                    mine.push(run_mine());
                }
                // fn-dsa from bytes, for information.
                match op.as_str() {
                    "signb" => theirs_b.push(time(reps, |i| {
                        let k = i % KEYS;
                        let mut sk =
                            Box::new(SigningKeyStandard::decode(&their_sk_bytes[k]).unwrap());
                        let mut sig = vec![0u8; signature_size(logn)];
                        sk.sign(
                            &mut Replay(&rands[k]),
                            &DOMAIN_NONE,
                            &HASH_ID_RAW,
                            &msgs[k],
                            &mut sig,
                        )
                        .unwrap();
                        black_box(sig);
                    })),
                    "verifyb" => theirs_b.push(time(reps, |i| {
                        let k = i % KEYS;
                        let vk = VerifyingKeyStandard::decode(&their_vk_bytes[k]).unwrap();
                        assert!(vk.verify(&sigs[k], &DOMAIN_NONE, &HASH_ID_RAW, &msgs[k]));
                    })),
                    _ => {}
                }
            }
            let (a, b) = (median(&mut mine), median(&mut theirs));
            let extra = if theirs_b.is_empty() {
                String::new()
            } else {
                format!("   (fn-dsa from bytes {:9.1} µs)", median(&mut theirs_b))
            };
            println!(
                "  {:8} pqsig {:9.1} µs   fn-dsa {:9.1} µs   ratio {:.3}{}",
                op,
                a,
                b,
                a / b,
                extra
            );
        }
    }
}

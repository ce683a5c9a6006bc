//! Differential: every SIMD backend this CPU has (AVX2, AVX-512) equals the portable
//! backend on fuzzed kernel inputs: ML-DSA's rejection samplers (raw XOF bytes in),
//! NTT / inverse NTT (congruent mod q, same output for every SIMD backend), decompose,
//! norm check, caddq, BitUnpack of z, and the four-way Keccak permutation. Inputs are
//! brought into each kernel's documented domain (|a| < q for the transforms, [0, q) for
//! decompose).
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig::kernels::keccak::x4::{permute4_for, StateX4};
use pqsig::kernels::mldsa::{kernels, Kernels, Poly, N, Q};
use pqsig::Backend;
use pqsig_fuzz::Fields;

const GAMMA2: [i32; 2] = [(Q - 1) / 88, (Q - 1) / 32];

fn simd() -> impl Iterator<Item = &'static Kernels> {
    [Backend::Avx2, Backend::Avx512]
        .into_iter()
        .filter(|b| b.is_available())
        .map(kernels)
}

/// Polynomials from 4-byte words, each mapped into [lo, hi].
fn polys(bytes: &[u8], lo: i64, hi: i64) -> Vec<Poly> {
    let words: Vec<i64> = bytes
        .chunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            lo + (u32::from_le_bytes(b) as i64).rem_euclid(hi - lo + 1)
        })
        .collect();
    let n = words.len().div_ceil(N).clamp(1, 8);
    let mut out = vec![Poly::default(); n];
    for (i, w) in words.iter().take(n * N).enumerate() {
        out[i / N].coeffs[i % N] = *w as i32;
    }
    out
}

fn reduced(p: &[Poly]) -> Vec<i32> {
    p.iter()
        .flat_map(|x| x.coeffs.iter().map(|c| c.rem_euclid(Q)))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let port = kernels(Backend::Portable);
    let mut f = Fields::new(data);
    let sel = f.byte();
    let q = Q as i64;
    match sel % 7 {
        0 | 1 => {
            // Rejection samplers on raw bytes, into an output of fuzzed length.
            let len = f.byte() as usize + (f.byte() as usize & 1) * 256;
            let buf = f.rest();
            let eta = if sel & 0x80 == 0 { 2 } else { 4 };
            let mut want = vec![i32::MIN; len];
            let n = if sel % 7 == 0 {
                (port.rej_uniform)(&mut want, buf)
            } else {
                (port.rej_eta)(eta, &mut want, buf)
            };
            for k in simd() {
                let mut got = vec![i32::MIN; len];
                let m = if sel % 7 == 0 {
                    (k.rej_uniform)(&mut got, buf)
                } else {
                    (k.rej_eta)(eta, &mut got, buf)
                };
                assert_eq!((m, &got), (n, &want), "{:?} sampler differs", k.backend);
            }
        }
        2 | 3 => {
            let input = polys(f.rest(), -(q - 1), q - 1);
            let mut want = input.clone();
            let t = |k: &Kernels| if sel % 7 == 2 { k.ntt } else { k.invntt_tomont };
            t(port)(&mut want);
            let mut first: Option<Vec<Poly>> = None;
            for k in simd() {
                let mut got = input.clone();
                t(k)(&mut got);
                assert_eq!(
                    reduced(&got),
                    reduced(&want),
                    "{:?} transform not congruent",
                    k.backend
                );
                if let Some(fst) = &first {
                    assert_eq!(fst, &got, "SIMD backends differ");
                }
                first = Some(got);
            }
        }
        4 => {
            let g2 = GAMMA2[(sel >> 7) as usize];
            let input = polys(f.rest(), 0, q - 1);
            let (mut a1, mut a0) = (input.clone(), vec![Poly::default(); input.len()]);
            (port.decompose)(g2, &mut a1, &mut a0);
            for k in simd() {
                let (mut b1, mut b0) = (input.clone(), vec![Poly::default(); input.len()]);
                (k.decompose)(g2, &mut b1, &mut b0);
                assert!(a1 == b1 && a0 == b0, "{:?} decompose differs", k.backend);
            }
        }
        5 => {
            // A bound up to (q − 1)/8, the largest ML-DSA checks against.
            let bound = ((f.byte() as i32) << 12 | (f.byte() as i32) << 4) % ((Q - 1) / 8) + 1;
            let input = polys(f.rest(), -(q - 1) / 2, (q - 1) / 2);
            let want = (port.chknorm)(&input, bound);
            let mut c = input.clone();
            (port.caddq)(&mut c);
            for k in simd() {
                assert_eq!(
                    (k.chknorm)(&input, bound),
                    want,
                    "{:?} chknorm differs",
                    k.backend
                );
                let mut d = input.clone();
                (k.caddq)(&mut d);
                assert_eq!(c, d, "{:?} caddq differs", k.backend);
            }
        }
        _ if sel & 0x40 != 0 => {
            // BitUnpack of z (signing's y, verification's z), 18 or 20 bits.
            let (bits, gamma1) = if sel & 0x80 == 0 {
                (18, 1 << 17)
            } else {
                (20, 1 << 19)
            };
            let mut inp = f.rest().to_vec();
            inp.resize(32 * bits, 0xA5);
            let mut want = Poly::default();
            (port.unpack_z)(&inp, gamma1, bits, &mut want);
            for k in simd() {
                let mut got = Poly::default();
                (k.unpack_z)(&inp, gamma1, bits, &mut got);
                assert_eq!(got, want, "{:?} unpack_z differs", k.backend);
            }
        }
        _ => {
            let mut st = StateX4::default();
            for (i, w) in f.rest().chunks(8).take(25 * 4).enumerate() {
                let mut b = [0u8; 8];
                b[..w.len()].copy_from_slice(w);
                st.s[i / 4][i % 4] = u64::from_le_bytes(b);
            }
            let mut want = st.clone();
            permute4_for(Backend::Portable)(&mut want);
            for b in [Backend::Avx2, Backend::Avx512] {
                let mut got = st.clone();
                permute4_for(b)(&mut got);
                assert!(got.s == want.s, "{b:?} Keccak x4 differs");
            }
        }
    }
});

//! The Falcon / FN-DSA part of the constant-time check (see the header of `ct_check.rs`
//! for the technique and the list of what is covered and declassified).

use super::{check, vg, Rng};
use pqsig::falcon::params::{sk_size, FG_BITS, FG_CAP_BITS};
use pqsig::kernels::falcon::fft::{self, FftKernels};
use pqsig::kernels::falcon::fpr::{self, emulated, native, Fpr};
use pqsig::kernels::falcon::ntt::{self, NttKernels, Q};
use pqsig::kernels::falcon::samplerz::{self, SamplerKernels, WINDOW};
use pqsig::kernels::internals::falcon::codec;
use pqsig::kernels::internals::falcon::keygen::{keygen_from_seed48, KeyPair};
use pqsig::kernels::internals::falcon::sign::prng::Prng;
use pqsig::kernels::internals::falcon::sign::CompactKey;
use pqsig::kernels::internals::falcon::verify::{complete_private_with, compute_public_with};
use pqsig::Backend;
use std::hint::black_box;

/// Degrees of the NTT checks: the portable fallback of the AVX2 transforms (logn < 5),
/// the first vectorised degree, and Falcon-512 / Falcon-1024.
const NTT_LOGNS: [u32; 5] = [1, 4, 5, 9, 10];
/// Degrees of the FFT checks: the AVX2 fallbacks (logn < 4 for transforms, split and
/// merge; n < 8 for the other operations), the first vectorised degree, 512 and 1024.
const FFT_LOGNS: [u32; 5] = [1, 2, 4, 9, 10];
/// Degrees of real key pairs (key generation runs once, with defined inputs: it is not
/// itself checked). 9 and 10 are Falcon-512 and Falcon-1024; 3 keeps the NTT/FFT
/// fallbacks on real keys.
const KEY_LOGNS: [u32; 3] = [3, 9, 10];

/// Key pairs used by the checks (generated once, outside any poisoning).
pub struct Keys(Vec<KeyPair>);

/// Generates the key pairs of [`KEY_LOGNS`] (deterministic seeds).
pub fn keys(rng: &mut Rng) -> Keys {
    Keys(
        KEY_LOGNS
            .iter()
            .map(|&logn| {
                let seed: [u8; 48] = rng.bytes();
                keygen_from_seed48(&seed, logn).expect("key generation")
            })
            .collect(),
    )
}

fn small(rng: &mut Rng, n: usize, lo: i32, hi: i32) -> Vec<i8> {
    (0..n).map(|_| rng.range(lo, hi) as i8).collect()
}

fn modq(rng: &mut Rng, n: usize) -> Vec<u16> {
    (0..n).map(|_| rng.range(0, Q as i32 - 1) as u16).collect()
}

/// A random binary64 with a random sign, exponent in `[emin, emax]` and mantissa.
fn rand_f64(rng: &mut Rng, emin: i32, emax: i32) -> f64 {
    let e = rng.range(emin, emax);
    let bits = ((rng.next() & 1) << 63) | (((e + 1023) as u64) << 52) | (rng.next() >> 12);
    f64::from_bits(bits)
}

/// A vector of `len` finite, non-zero build-`Fpr` values of moderate magnitude.
fn fprs(rng: &mut Rng, len: usize) -> Vec<Fpr> {
    (0..len)
        .map(|_| Fpr::from_bits(rand_f64(rng, -20, 20).to_bits()))
        .collect()
}

fn bits(v: &[Fpr]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

// ---------------------------------------------------------------------------------------
// NTT mod q, public-key computation and key completion.

/// The NTT kernels of backend `b` on poisoned operands, plus `compute_public` on poisoned
/// f, g (synthetic and real keys); its bool (f invertible) is declassified.
pub fn check_ntt(b: Backend, keys: &Keys, rng: &mut Rng) -> Vec<&'static str> {
    let k: &NttKernels = black_box(ntt::kernels(b));
    let r: &NttKernels = ntt::kernels(Backend::Portable);
    assert_eq!(k.backend, b);
    let mut done = Vec::new();
    for logn in NTT_LOGNS {
        let n = 1usize << logn;
        // Two polynomials per call: the kernels are batch-shaped.
        let m = 2 * n;

        // from_i8: the whole i8 range (f, g, F, G are i8).
        {
            let mut x = small(rng, m, -128, 127);
            let mut want = vec![0u16; m];
            (r.from_i8)(&mut want, &x);
            let mut out = vec![0u16; m];
            vg::poison(&mut x[..]);
            (k.from_i8)(&mut out, &x);
            vg::unpoison(&mut out[..]);
            check(&mut done, "falcon ntt from_i8", out == want);
        }

        // The transforms.
        type Unary = fn(&mut [u16], u32);
        let unary: [(&'static str, Unary, Unary); 2] = [
            ("falcon ntt ntt", k.ntt, r.ntt),
            ("falcon ntt intt", k.intt, r.intt),
        ];
        for (name, f, g) in unary {
            let mut a = modq(rng, m);
            let mut want = a.clone();
            g(&mut want, logn);
            vg::poison(&mut a[..]);
            f(&mut a, logn);
            vg::unpoison(&mut a[..]);
            check(&mut done, name, a == want);
        }
        // Into Montgomery form.
        {
            let mut a = modq(rng, m);
            let mut want = a.clone();
            (r.to_monty)(&mut want);
            vg::poison(&mut a[..]);
            (k.to_monty)(&mut a);
            vg::unpoison(&mut a[..]);
            check(&mut done, "falcon ntt to_monty", a == want);
        }

        // Binary kernels, with `b` one polynomial (broadcast) or as long as `a`.
        type Binary = fn(&mut [u16], &[u16]);
        let binary: [(&'static str, Binary, Binary); 3] = [
            ("falcon ntt mul_monty", k.mul_monty, r.mul_monty),
            ("falcon ntt add", k.add, r.add),
            ("falcon ntt sub", k.sub, r.sub),
        ];
        for (name, f, g) in binary {
            for blen in [n, m] {
                let mut a = modq(rng, m);
                let mut bb = modq(rng, blen);
                let mut want = a.clone();
                g(&mut want, &bb);
                vg::poison(&mut a[..]);
                vg::poison(&mut bb[..]);
                f(&mut a, &bb);
                vg::unpoison(&mut a[..]);
                check(&mut done, name, a == want);
            }
        }

        // div: with and without a zero divisor; only the bool is declassified.
        for zero in [false, true] {
            let mut a = modq(rng, m);
            let mut bb: Vec<u16> = (0..m).map(|_| rng.range(1, Q as i32 - 1) as u16).collect();
            if zero {
                bb[rng.range(0, m as i32 - 1) as usize] = 0;
            }
            let mut want = a.clone();
            let want_ok = (r.div)(&mut want, &bb);
            vg::poison(&mut a[..]);
            vg::poison(&mut bb[..]);
            let mut ok = (k.div)(&mut a, &bb);
            vg::unpoison(&mut ok);
            vg::unpoison(&mut a[..]);
            check(
                &mut done,
                "falcon ntt div",
                ok == want_ok && ok != zero && a == want,
            );
        }

        // compute_public: h = g/f. f = ±x^j is invertible; a random f usually is too;
        // f = 0 is not. The bool (f invertible) is public: key generation discards the
        // candidate and draws again.
        for case in 0..3 {
            let mut f = match case {
                0 => monomial(rng, n),
                1 => small(rng, n, -20, 20),
                _ => vec![0i8; n],
            };
            let mut g = small(rng, n, -20, 20);
            let mut want = vec![0u16; n];
            let want_ok = compute_public_with(r, &mut want, &f, &g, logn);
            let mut h = vec![0u16; n];
            vg::poison(&mut f[..]);
            vg::poison(&mut g[..]);
            let mut ok = compute_public_with(k, &mut h, &f, &g, logn);
            vg::unpoison(&mut ok);
            vg::unpoison(&mut h[..]);
            check(
                &mut done,
                "falcon compute_public",
                ok == want_ok && (case != 0 || ok) && (case != 2 || !ok) && h == want,
            );
        }
    }

    // Real keys: h must come out as key generation made it.
    for kp in &keys.0 {
        let (mut f, mut g) = (kp.f.clone(), kp.g.clone());
        let n = f.len();
        let mut h = vec![0u16; n];
        vg::poison(&mut f[..]);
        vg::poison(&mut g[..]);
        let mut ok = compute_public_with(k, &mut h, &f, &g, kp.logn);
        vg::unpoison(&mut ok);
        vg::unpoison(&mut h[..]);
        check(&mut done, "falcon compute_public", ok && h == kp.h);
    }
    done
}

/// `complete_private` on poisoned f, g, F (synthetic and real keys), the bool (G fits
/// in [−127, 127]: key validity) declassified. PENDING (not in the default run): the
/// function branches on that bool before returning it (`if !ok { G.fill(0) }`), where
/// the harness cannot declassify it.
pub fn check_complete_private(b: Backend, keys: &Keys, rng: &mut Rng) -> Vec<&'static str> {
    let k: &NttKernels = black_box(ntt::kernels(b));
    let r: &NttKernels = ntt::kernels(Backend::Portable);
    let mut done = Vec::new();
    for logn in NTT_LOGNS {
        let n = 1usize << logn;
        // complete_private: G = g·F/f. Valid: f = ±x^j with sparse small g, F (G small);
        // invalid: random f, g, F (G out of range), and f = 0 (not invertible).
        for case in 0..3 {
            let (mut f, mut g, mut big_f) = match case {
                0 => (monomial(rng, n), sparse(rng, n), sparse(rng, n)),
                1 => (
                    small(rng, n, -40, 40),
                    small(rng, n, -40, 40),
                    small(rng, n, -127, 127),
                ),
                _ => (
                    vec![0i8; n],
                    small(rng, n, -40, 40),
                    small(rng, n, -127, 127),
                ),
            };
            let ok = complete_checked(k, r, &mut f, &mut g, &mut big_f, logn);
            check(&mut done, "falcon complete_private", ok == (case == 0));
        }
    }
    for kp in &keys.0 {
        let (mut f, mut g, mut big_f) = (kp.f.clone(), kp.g.clone(), kp.F.clone());
        let mut want = vec![0i8; f.len()];
        assert!(complete_private_with(r, &mut want, &f, &g, &big_f, kp.logn));
        let ok = complete_checked(k, r, &mut f, &mut g, &mut big_f, kp.logn);
        check(&mut done, "falcon complete_private", ok && want == kp.G);
    }
    done
}

/// ±x^j for a random j: invertible modulo x^n + 1 and q.
fn monomial(rng: &mut Rng, n: usize) -> Vec<i8> {
    let mut f = vec![0i8; n];
    f[rng.range(0, n as i32 - 1) as usize] = if rng.next() & 1 == 0 { 1 } else { -1 };
    f
}

/// At most eight non-zero coefficients in [−3, 3]: products of two of these stay
/// within ±72 per coefficient.
fn sparse(rng: &mut Rng, n: usize) -> Vec<i8> {
    let mut f = vec![0i8; n];
    for _ in 0..8.min(n) {
        f[rng.range(0, n as i32 - 1) as usize] = rng.range(-3, 3) as i8;
    }
    f
}

/// `complete_private_with(k)` on poisoned f, g, F against the portable result; returns
/// the (declassified) validity bool.
fn complete_checked(
    k: &NttKernels,
    r: &NttKernels,
    f: &mut [i8],
    g: &mut [i8],
    big_f: &mut [i8],
    logn: u32,
) -> bool {
    let n = f.len();
    let mut want = vec![0i8; n];
    let want_ok = complete_private_with(r, &mut want, f, g, big_f, logn);
    let mut big_g = vec![0i8; n];
    vg::poison(f);
    vg::poison(g);
    vg::poison(big_f);
    let mut ok = complete_private_with(k, &mut big_g, f, g, big_f, logn);
    vg::unpoison(&mut ok);
    vg::unpoison(&mut big_g[..]);
    vg::unpoison(f);
    vg::unpoison(g);
    vg::unpoison(big_f);
    assert!(
        ok == want_ok && big_g == want,
        "falcon complete_private: output differs from the portable kernel"
    );
    ok
}

// ---------------------------------------------------------------------------------------
// The compact secret-key codec.

/// Round-3 `trim_i8_encode` / `trim_i8_decode` on poisoned coefficients and bytes, and
/// the whole compact secret key (`encode_secret_key_into` / `decode_secret_key_logn`);
/// only their validity result is declassified. PENDING (not in the default run): each
/// branches on its validity before returning it (zeroing the output on failure), where
/// the harness cannot declassify it.
pub fn check_codec_pending(keys: &Keys, rng: &mut Rng) -> Vec<&'static str> {
    let mut done = Vec::new();
    for kp in &keys.0 {
        let logn = kp.logn;
        let n = 1usize << logn;
        for (bits, src) in [
            (FG_BITS[logn as usize], &kp.f),
            (FG_CAP_BITS[logn as usize], &kp.F),
        ] {
            let len = (n * bits as usize).div_ceil(8);
            let maxv = (1i32 << (bits - 1)) - 1;
            // Valid: the key's own coefficients; invalid: one value out of range.
            for bad in [false, true] {
                let mut x = src.clone();
                if bad {
                    // One past the range: ±2^(bits−1) (only −128 for eight bits).
                    let v = if bits == 8 || rng.next() & 1 == 0 {
                        -(maxv + 1)
                    } else {
                        maxv + 1
                    };
                    x[rng.range(0, n as i32 - 1) as usize] = v as i8;
                }
                let mut want = vec![0u8; len];
                let want_r = codec::trim_i8_encode(&mut want, &x, logn, bits);
                let mut out = vec![0u8; len];
                vg::poison(&mut x[..]);
                let mut res = codec::trim_i8_encode(&mut out, &x, logn, bits);
                vg::unpoison(&mut res);
                vg::unpoison(&mut out[..]);
                check(
                    &mut done,
                    "falcon trim_i8_encode",
                    res == want_r && res.is_some() != bad && out == want,
                );

                // Decoding the valid bytes, and bytes with a −2^(bits−1) field.
                let mut buf = want.clone();
                if bad {
                    // The first field (top `bits` bits of byte 0) becomes 10…0, the
                    // forbidden −2^(bits−1).
                    let low = ((1u16 << (8 - bits)) - 1) as u8;
                    buf[0] = (buf[0] & low) | 0x80;
                }
                let mut want_x = vec![0i8; n];
                let want_d = codec::trim_i8_decode(&mut want_x, &buf, logn, bits);
                let mut y = vec![0i8; n];
                vg::poison(&mut buf[..]);
                let mut res = codec::trim_i8_decode(&mut y, &buf, logn, bits);
                vg::unpoison(&mut res);
                vg::unpoison(&mut y[..]);
                check(
                    &mut done,
                    "falcon trim_i8_decode",
                    res == want_d && res.is_some() != bad && y == want_x,
                );
                if !bad {
                    check(&mut done, "falcon trim_i8_decode", y == *src);
                }
            }
        }

        // The whole compact key.
        let mut f = kp.f.clone();
        let mut g = kp.g.clone();
        let mut big_f = kp.F.clone();
        let want = codec::encode_secret_key(&f, &g, &big_f, logn).expect("valid key");
        let mut out = vec![0u8; sk_size(logn)];
        vg::poison(&mut f[..]);
        vg::poison(&mut g[..]);
        vg::poison(&mut big_f[..]);
        let mut res = codec::encode_secret_key_into(&mut out, &f, &g, &big_f, logn);
        vg::unpoison(&mut res);
        vg::unpoison(&mut out[..]);
        check(
            &mut done,
            "falcon encode_secret_key",
            res == Ok(out.len()) && out[..] == want[..],
        );
        let mut sk = want.to_vec();
        vg::poison(&mut sk[1..]);
        let mut parts = codec::decode_secret_key_logn(&sk, logn);
        vg::unpoison(&mut parts);
        let ok = match &mut parts {
            Ok(p) => {
                vg::unpoison(&mut p.f[..]);
                vg::unpoison(&mut p.g[..]);
                vg::unpoison(&mut p.F[..]);
                p.f == kp.f && p.g == kp.g && p.F == kp.F
            }
            Err(_) => false,
        };
        check(&mut done, "falcon decode_secret_key", ok);
    }
    done
}

/// FN-DSA's secret-key field codec (`fndsa::codec`): `trim_i8_encode` (no validity
/// output), `trim_i8_fits` (bool declassified) and `trim_i8_decode` (validity declassified)
/// on poisoned coefficients and bytes.
pub fn check_codec(keys: &Keys, rng: &mut Rng) -> Vec<&'static str> {
    use pqsig::kernels::internals::fndsa as fc;
    let mut done = Vec::new();
    for kp in &keys.0 {
        let logn = kp.logn;
        let n = 1usize << logn;
        for (bits, src) in [
            (FG_BITS[logn as usize], &kp.f),
            (FG_CAP_BITS[logn as usize], &kp.F),
        ] {
            if !(n * bits as usize).is_multiple_of(8) {
                continue;
            }
            let len = n * bits as usize / 8;
            let maxv = (1i32 << (bits - 1)) - 1;
            for bad in [false, true] {
                let mut x = src.clone();
                if bad {
                    x[rng.range(0, n as i32 - 1) as usize] = (-(maxv + 1)) as i8;
                }
                let mut want = vec![0u8; len];
                let want_len = fc::trim_i8_encode(&x, bits, &mut want);
                let want_fits = fc::trim_i8_fits(&x, bits);
                let mut out = vec![0u8; len];
                vg::poison(&mut x[..]);
                let got_len = fc::trim_i8_encode(&x, bits, &mut out);
                let mut fits = fc::trim_i8_fits(&x, bits);
                vg::unpoison(&mut fits);
                vg::unpoison(&mut out[..]);
                check(
                    &mut done,
                    "fndsa trim_i8_encode/fits",
                    got_len == want_len && fits == want_fits && fits != bad && out == want,
                );

                // Decoding: the encoder's bytes, valid or with a −2^(bits−1) field.
                let mut buf = want.clone();
                let mut want_x = vec![0i8; n];
                let want_d = fc::trim_i8_decode(&buf, &mut want_x, bits);
                let mut y = vec![0i8; n];
                vg::poison(&mut buf[..]);
                let mut res = fc::trim_i8_decode(&buf, &mut y, bits);
                vg::unpoison(&mut res);
                vg::unpoison(&mut y[..]);
                check(
                    &mut done,
                    "fndsa trim_i8_decode",
                    res == want_d && res.is_some() != bad && y == want_x,
                );
            }
        }
    }
    done
}

// ---------------------------------------------------------------------------------------
// FFT-domain kernels.

/// Every FFT kernel of backend `b` on poisoned operands, bit-compared with portable.
pub fn check_fft(b: Backend, rng: &mut Rng) -> Vec<&'static str> {
    let k: &FftKernels = black_box(fft::kernels(b));
    let r: &FftKernels = &fft::PORTABLE;
    let mut done = Vec::new();
    for logn in FFT_LOGNS {
        let n = 1usize << logn;
        let hn = n >> 1;

        type Unary = fn(&mut [Fpr], u32);
        let unary: [(&'static str, Unary, Unary); 5] = [
            ("falcon fft", k.fft, r.fft),
            ("falcon ifft", k.ifft, r.ifft),
            ("falcon poly_neg", k.poly_neg, r.poly_neg),
            ("falcon poly_adj_fft", k.poly_adj_fft, r.poly_adj_fft),
            (
                "falcon poly_mulselfadj_fft",
                k.poly_mulselfadj_fft,
                r.poly_mulselfadj_fft,
            ),
        ];
        for (name, f, g) in unary {
            let mut a = fprs(rng, n);
            let mut want = a.clone();
            g(&mut want, logn);
            vg::poison(&mut a[..]);
            f(&mut a, logn);
            vg::unpoison(&mut a[..]);
            check(&mut done, name, bits(&a) == bits(&want));
        }

        // a ← a ∘ b, with b of n values or n/2 (auto-adjoint).
        type Binary = fn(&mut [Fpr], &[Fpr], u32);
        let binary: [(&'static str, Binary, Binary, usize); 7] = [
            ("falcon poly_add", k.poly_add, r.poly_add, n),
            ("falcon poly_sub", k.poly_sub, r.poly_sub, n),
            ("falcon poly_mul_fft", k.poly_mul_fft, r.poly_mul_fft, n),
            (
                "falcon poly_muladj_fft",
                k.poly_muladj_fft,
                r.poly_muladj_fft,
                n,
            ),
            ("falcon poly_div_fft", k.poly_div_fft, r.poly_div_fft, n),
            (
                "falcon poly_mul_autoadj_fft",
                k.poly_mul_autoadj_fft,
                r.poly_mul_autoadj_fft,
                hn,
            ),
            (
                "falcon poly_div_autoadj_fft",
                k.poly_div_autoadj_fft,
                r.poly_div_autoadj_fft,
                hn,
            ),
        ];
        for (name, f, g, blen) in binary {
            let mut a = fprs(rng, n);
            let mut bb = fprs(rng, blen);
            let mut want = a.clone();
            g(&mut want, &bb, logn);
            vg::poison(&mut a[..]);
            vg::poison(&mut bb[..]);
            f(&mut a, &bb, logn);
            vg::unpoison(&mut a[..]);
            check(&mut done, name, bits(&a) == bits(&want));
        }

        // a ← a · x, x secret too.
        {
            let mut a = fprs(rng, n);
            let mut x = fprs(rng, 1)[0];
            let mut want = a.clone();
            (r.poly_mulconst)(&mut want, x, logn);
            vg::poison(&mut a[..]);
            vg::poison(&mut x);
            (k.poly_mulconst)(&mut a, x, logn);
            vg::unpoison(&mut a[..]);
            check(&mut done, "falcon poly_mulconst", bits(&a) == bits(&want));
        }

        // d ← 1/(|a|² + |b|²) (n/2 outputs).
        {
            let (mut a, mut bb) = (fprs(rng, n), fprs(rng, n));
            let mut want = vec![fpr::ZERO; hn];
            (r.poly_invnorm2_fft)(&mut want, &a, &bb, logn);
            let mut d = vec![fpr::ZERO; hn];
            vg::poison(&mut a[..]);
            vg::poison(&mut bb[..]);
            (k.poly_invnorm2_fft)(&mut d, &a, &bb, logn);
            vg::unpoison(&mut d[..]);
            check(
                &mut done,
                "falcon poly_invnorm2_fft",
                bits(&d) == bits(&want),
            );
        }

        // d ← F·adj(f) + G·adj(g).
        {
            let mut ins: Vec<Vec<Fpr>> = (0..4).map(|_| fprs(rng, n)).collect();
            let mut want = vec![fpr::ZERO; n];
            (r.poly_add_muladj_fft)(&mut want, &ins[0], &ins[1], &ins[2], &ins[3], logn);
            let mut d = vec![fpr::ZERO; n];
            ins.iter_mut().for_each(|v| vg::poison(&mut v[..]));
            (k.poly_add_muladj_fft)(&mut d, &ins[0], &ins[1], &ins[2], &ins[3], logn);
            vg::unpoison(&mut d[..]);
            check(
                &mut done,
                "falcon poly_add_muladj_fft",
                bits(&d) == bits(&want),
            );
        }

        // LDL, in place and into separate outputs.
        {
            let (mut g00, mut g01, mut g11) = (fprs(rng, n), fprs(rng, n), fprs(rng, n));
            let (mut w01, mut w11) = (g01.clone(), g11.clone());
            (r.poly_ldl_fft)(&g00, &mut w01, &mut w11, logn);
            let (mut wd, mut wl) = (vec![fpr::ZERO; n], vec![fpr::ZERO; n]);
            (r.poly_ldlmv_fft)(&mut wd, &mut wl, &g00, &g01, &g11, logn);
            let (mut d11, mut l10) = (vec![fpr::ZERO; n], vec![fpr::ZERO; n]);
            vg::poison(&mut g00[..]);
            vg::poison(&mut g01[..]);
            vg::poison(&mut g11[..]);
            (k.poly_ldlmv_fft)(&mut d11, &mut l10, &g00, &g01, &g11, logn);
            vg::unpoison(&mut d11[..]);
            vg::unpoison(&mut l10[..]);
            check(
                &mut done,
                "falcon poly_ldlmv_fft",
                bits(&d11) == bits(&wd) && bits(&l10) == bits(&wl),
            );
            (k.poly_ldl_fft)(&g00, &mut g01, &mut g11, logn);
            vg::unpoison(&mut g01[..]);
            vg::unpoison(&mut g11[..]);
            check(
                &mut done,
                "falcon poly_ldl_fft",
                bits(&g01) == bits(&w01) && bits(&g11) == bits(&w11),
            );
        }

        // Split and merge.
        {
            let mut f = fprs(rng, n);
            let (mut w0, mut w1) = (vec![fpr::ZERO; hn.max(1)], vec![fpr::ZERO; hn.max(1)]);
            (r.poly_split_fft)(&mut w0, &mut w1, &f, logn);
            let (mut f0, mut f1) = (vec![fpr::ZERO; hn.max(1)], vec![fpr::ZERO; hn.max(1)]);
            vg::poison(&mut f[..]);
            (k.poly_split_fft)(&mut f0, &mut f1, &f, logn);
            let mut m = vec![fpr::ZERO; n];
            (k.poly_merge_fft)(&mut m, &f0, &f1, logn);
            vg::unpoison(&mut f0[..]);
            vg::unpoison(&mut f1[..]);
            vg::unpoison(&mut m[..]);
            check(
                &mut done,
                "falcon poly_split_fft",
                bits(&f0) == bits(&w0) && bits(&f1) == bits(&w1),
            );
            let mut wm = vec![fpr::ZERO; n];
            (r.poly_merge_fft)(&mut wm, &w0, &w1, logn);
            check(&mut done, "falcon poly_merge_fft", bits(&m) == bits(&wm));
        }
    }
    done
}

/// Key expansion (B0 in FFT form, Gram matrix, ffLDL tree, leaf normalisation and the
/// leaf range check) on poisoned f, g, F, G of real keys; the validity bool is
/// declassified (it is the same for every key from key generation).
pub fn check_expand(b: Backend, keys: &Keys) -> Vec<&'static str> {
    let mut done = Vec::new();
    for kp in &keys.0 {
        let (mut f, mut g, mut big_f, mut big_g) =
            (kp.f.clone(), kp.g.clone(), kp.F.clone(), kp.G.clone());
        vg::poison(&mut f[..]);
        vg::poison(&mut g[..]);
        vg::poison(&mut big_f[..]);
        vg::poison(&mut big_g[..]);
        let ck = CompactKey::new(&f, &g, &big_f, &big_g, kp.logn)
            .expect("lengths")
            .with_backend(b);
        let ek = ck.expand();
        let mut valid = ek.is_valid();
        vg::unpoison(&mut valid);
        check(&mut done, "falcon CompactKey::expand", valid);
    }
    done
}

// ---------------------------------------------------------------------------------------
// The sampler's PRNG and base sampler.

/// ChaCha20×8 on a secret key and counter, the PRNG seeded from a secret seed across
/// window refills, and the base sampler `gaussian0` on the secret stream.
pub fn check_sampler(b: Backend, rng: &mut Rng) -> Vec<&'static str> {
    let k: &'static SamplerKernels = black_box(samplerz::kernels(b));
    let r: &'static SamplerKernels = samplerz::kernels(Backend::Portable);
    assert_eq!(k.backend, b);
    let mut done = Vec::new();
    for _ in 0..2 {
        let mut key_iv: [u32; 12] = core::array::from_fn(|_| rng.next() as u32);
        let mut counter = rng.next();
        let mut want = [0u8; WINDOW];
        (r.chacha20x8)(&key_iv, counter, &mut want);
        let mut out = [0u8; WINDOW];
        vg::poison(&mut key_iv);
        vg::poison(&mut counter);
        (k.chacha20x8)(&key_iv, counter, &mut out);
        vg::unpoison(&mut out);
        check(&mut done, "falcon chacha20x8", out == want);
    }

    // The PRNG from a secret seed: u64 and u8 reads across three refills.
    {
        let seed: [u8; 56] = rng.bytes();
        let reads = |kk: &'static SamplerKernels, poison: bool| -> Vec<u64> {
            let mut s = seed;
            if poison {
                vg::poison(&mut s);
            }
            let mut p = Prng::from_seed(&s, kk);
            let mut v: Vec<u64> = (0..200)
                .map(|i| {
                    if i % 3 == 0 {
                        p.next_u8() as u64
                    } else {
                        p.next_u64()
                    }
                })
                .collect();
            vg::unpoison(&mut v[..]);
            v
        };
        let want = reads(r, false);
        check(&mut done, "falcon Prng", reads(k, true) == want);
    }

    // gaussian0 over the PRNG's stream (9 secret bytes per draw, with refills).
    {
        let seed: [u8; 56] = rng.bytes();
        let draws = |kk: &'static SamplerKernels, poison: bool| -> Vec<i32> {
            let mut s = seed;
            if poison {
                vg::poison(&mut s);
            }
            let mut p = Prng::from_seed(&s, kk);
            let mut st = p.stream();
            let mut v: Vec<i32> = (0..300).map(|_| (kk.gaussian0)(&mut st)).collect();
            vg::unpoison(&mut v[..]);
            v
        };
        let want = draws(r, false);
        check(&mut done, "falcon gaussian0", draws(k, true) == want);
    }
    done
}

// ---------------------------------------------------------------------------------------
// Fpr: the emulated type's operations, the native conversions, expm_p63.

type E = emulated::Fpr;
type N = native::Fpr;

/// Runs `op` on a poisoned copy of `x` and returns its result declassified.
#[inline(never)]
fn on_secret<T: Copy, R>(mut x: T, op: impl Fn(T) -> R) -> R {
    vg::poison(&mut x);
    let mut out = op(black_box(x));
    vg::unpoison(&mut out);
    out
}

/// The emulated `Fpr` (integer-only binary64, claimed constant-time) on poisoned
/// operands, bit-compared with the FPU; the native conversions to integers; and
/// `expm_p63` on the build's `Fpr`.
pub fn check_fpr(rng: &mut Rng) -> Vec<&'static str> {
    let mut done = Vec::new();
    let e = |x: f64| E::from_bits(x.to_bits());
    for _ in 0..40 {
        let (x, y) = (rand_f64(rng, -60, 60), rand_f64(rng, -60, 60));
        // Also cancellation (same exponent, opposite signs) and far-apart exponents.
        let z = -f64::from_bits(x.to_bits() ^ (rng.next() & 0xFF));
        let w = rand_f64(rng, -1000, 1000);
        for (a, b) in [(x, y), (x, z), (x, w), (x, 0.0), (0.0, -0.0), (-x, x)] {
            let got = on_secret((e(a), e(b)), |(p, q)| {
                [
                    p.add(q).to_bits(),
                    p.sub(q).to_bits(),
                    p.mul(q).to_bits(),
                    p.lt(q) as u64,
                ]
            });
            let want = [
                (a + b).to_bits(),
                (a - b).to_bits(),
                (a * b).to_bits(),
                (a < b) as u64,
            ];
            // Results outside the normal range are outside the emulation's domain.
            let normal = |v: f64| v == 0.0 || v.is_normal();
            let in_domain = [normal(a + b), normal(a - b), normal(a * b), true];
            check(
                &mut done,
                "fpr emulated add/sub/mul/lt",
                (0..4).all(|i| !in_domain[i] || got[i] == want[i]),
            );
        }
        let d = on_secret((e(x), e(y)), |(p, q)| {
            [p.div(q).to_bits(), q.inv().to_bits(), p.sqr().to_bits()]
        });
        check(
            &mut done,
            "fpr emulated div/inv/sqr",
            d == [(x / y).to_bits(), (1.0 / y).to_bits(), (x * x).to_bits()],
        );
        let s = on_secret(e(x.abs()), |p| {
            [
                p.sqrt().to_bits(),
                p.half().to_bits(),
                p.double().to_bits(),
                p.neg().to_bits(),
            ]
        });
        check(
            &mut done,
            "fpr emulated sqrt/half/double/neg",
            s == [
                x.abs().sqrt().to_bits(),
                (x.abs() / 2.0).to_bits(),
                (x.abs() * 2.0).to_bits(),
                (-x.abs()).to_bits(),
            ],
        );

        // Conversions: |v| < 2^62, ties, small values, negative zero.
        let t = rand_f64(rng, -3, 61);
        let tie = (rng.range(-1 << 20, 1 << 20) as f64) + 0.5;
        for v in [t, tie, -tie, rand_f64(rng, -30, -1), -0.0, 0.0] {
            let got = on_secret(e(v), |p| [p.rint(), p.floor(), p.trunc()]);
            let want = [v.round_ties_even() as i64, v.floor() as i64, v as i64];
            check(&mut done, "fpr emulated rint/floor/trunc", got == want);
            let got = on_secret(N::from_bits(v.to_bits()), |p| {
                [p.rint(), p.floor(), p.trunc()]
            });
            check(&mut done, "fpr native rint/floor/trunc", got == want);
        }
        let i = (rng.next() as i64) >> rng.range(0, 63);
        let sc = rng.range(-200, 200);
        let got = on_secret((i, sc), |(i, sc)| {
            [E::of(i).to_bits(), E::scaled(i, sc).to_bits()]
        });
        let want = [(i as f64).to_bits(), ((i as f64) * 2f64.powi(sc)).to_bits()];
        check(&mut done, "fpr emulated of/scaled", got == want);
        let got = on_secret(i, |i| N::of(i).to_bits());
        check(&mut done, "fpr native of", got == want[0]);

        // expm_p63(x, ccs) for 0 <= x < ln 2, 0 < ccs < 1 (the BerExp threshold).
        let xs = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * core::f64::consts::LN_2;
        let ccs = 0.5 + (rng.next() >> 11) as f64 / (1u64 << 54) as f64;
        let fx = Fpr::from_bits(xs.to_bits());
        let fc = Fpr::from_bits(ccs.to_bits());
        let want = fpr::expm_p63(fx, fc);
        let got = on_secret((fx, fc), |(a, b)| fpr::expm_p63(a, b));
        check(&mut done, "fpr expm_p63", got == want);
    }
    done
}

/// The whole SamplerZ kernel on poisoned (mu, isigma) and a poisoned stream. Not part of
/// the default run: the kernel branches on its documented data-dependent points (BerExp's
/// lazy byte comparison, the accept/reject decision) and exposes no hook to declassify
/// them, so memcheck flags those; the run shows which locations are flagged.
pub fn check_sample_full(b: Backend, rng: &mut Rng) -> Vec<&'static str> {
    use samplerz::Request;
    let k: &'static SamplerKernels = black_box(samplerz::kernels(b));
    let r: &'static SamplerKernels = samplerz::kernels(Backend::Portable);
    let mut done = Vec::new();
    let seed: [u8; 56] = rng.bytes();
    let logn = 9usize;
    let sigma_min = fpr::SIGMA_MIN[logn];
    // Pairs of centres with the same 1/σ in [1/1.8205, 1/σ_min], as ffSampling sends.
    let mut reqs: Vec<Request> = Vec::new();
    for _ in 0..32 {
        let mu0 = rng.range(-40000, 40000) as f64 / 3.0;
        let mu1 = rng.range(-40000, 40000) as f64 / 7.0;
        let isigma = 0.55 + (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 0.2;
        for mu in [mu0, mu1] {
            reqs.push(Request {
                mu: Fpr::from_bits(mu.to_bits()),
                isigma: Fpr::from_bits(isigma.to_bits()),
            });
        }
    }
    let run = |kk: &'static SamplerKernels, poison: bool| -> Vec<i32> {
        let mut s = seed;
        let mut rq = reqs.clone();
        if poison {
            vg::poison(&mut s);
            vg::poison(&mut rq[..]);
        }
        let mut p = Prng::from_seed(&s, kk);
        let mut st = p.stream();
        let mut out = vec![0i32; rq.len()];
        for (o, pair) in out.chunks_mut(2).zip(rq.chunks(2)) {
            (kk.sample)(&mut st, sigma_min, pair, o);
        }
        vg::unpoison(&mut out[..]);
        out
    };
    let want = run(r, false);
    check(&mut done, "falcon sample (full)", run(k, true) == want);
    done
}

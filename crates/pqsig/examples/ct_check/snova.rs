//! The SNOVA part of the constant-time check (see the header of `ct_check.rs` for the
//! technique): the GF(16) kernels on poisoned matrices, per backend, bit-compared with
//! portable.
//!
//! SNOVA's secrets are the private seed, T12 and everything derived from it (F12, F21),
//! the vinegar values and the oil solution. All of them only ever pass through the GF(16)
//! kernels below (and SHAKE256, checked in the ML-DSA part), so every kernel runs on
//! poisoned inputs of the shapes signing uses. `solve`'s non-singular flag is the one
//! documented declassification: a singular system makes the signer draw new vinegar
//! values (the Round-3 restart counter), which reveals only that one attempt failed.

use super::{check, vg, Rng};
use pqsig::kernels::gf16::{self, Kernels};
use pqsig::kernels::xof;
use pqsig::snova::{ParamSet, SigningKey};
use pqsig::Backend;
use std::hint::black_box;

fn nibbles(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| (rng.next() & 15) as u8).collect()
}

fn unreduced(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| (rng.next() & 0x7F) as u8).collect()
}

/// Every GF(16) kernel of backend `b` on poisoned inputs.
pub fn check_gf16(b: Backend, rng: &mut Rng) -> Vec<&'static str> {
    let k: &Kernels = black_box(gf16::kernels(b));
    let r: &Kernels = gf16::kernels(Backend::Portable);
    let mut done = Vec::new();
    // (m, kk, n): the quadratic-form shapes of SNOVA_I_S (n·l = 128, l·r = 16) and
    // SNOVA_V_K (n·l = 220, l·r = 40), the sk-expansion shape (v·l × v·l · o·l), and a
    // small odd shape for the row tails.
    for (m, kk, n) in [(128, 128, 16), (44, 220, 40), (108, 108, 20), (7, 5, 3)] {
        // A transposed half of the time (strides are public).
        for transposed in [false, true] {
            let mut a = nibbles(rng, m * kk);
            let mut bm = nibbles(rng, kk * n);
            let mut c = unreduced(rng, m * n);
            let (rs, cs) = if transposed { (1, m) } else { (kk, 1) };
            let mut want = c.clone();
            (r.gemm_acc)(&mut want, n, &a, rs, cs, &bm, n, m, kk, n);
            vg::poison(&mut a[..]);
            vg::poison(&mut bm[..]);
            vg::poison(&mut c[..]);
            (k.gemm_acc)(&mut c, n, &a, rs, cs, &bm, n, m, kk, n);
            vg::unpoison(&mut c[..]);
            check(&mut done, "gemm_acc", c == want);
        }
    }
    for len in [16, 40, 161, 200] {
        let mut s = [(rng.next() & 15) as u8];
        let mut x = nibbles(rng, len);
        let mut acc = unreduced(rng, len);
        let mut want = acc.clone();
        (r.axpy_acc)(&mut want, s[0], &x);
        vg::poison(&mut s[..]);
        vg::poison(&mut x[..]);
        vg::poison(&mut acc[..]);
        (k.axpy_acc)(&mut acc, s[0], &x);
        vg::unpoison(&mut acc[..]);
        check(&mut done, "axpy_acc", acc == want);

        let mut v = unreduced(rng, len);
        let mut want = v.clone();
        (r.reduce)(&mut want);
        vg::poison(&mut v[..]);
        (k.reduce)(&mut v);
        vg::unpoison(&mut v[..]);
        check(&mut done, "reduce", v == want);
    }
    for (p, kk, q) in [(4, 4, 4), (5, 5, 5), (4, 4, 8), (8, 8, 4), (5, 5, 6)] {
        let count = 24;
        let mut a = nibbles(rng, count * p * kk);
        let mut bm = nibbles(rng, count * kk * q);
        let mut want = vec![0u8; count * p * q];
        (r.mat_mul_batch)(&mut want, &a, &bm, p, kk, q);
        let mut out = vec![0u8; count * p * q];
        vg::poison(&mut a[..]);
        vg::poison(&mut bm[..]);
        (k.mat_mul_batch)(&mut out, &a, &bm, p, kk, q);
        vg::unpoison(&mut out[..]);
        check(&mut done, "mat_mul_batch", out == want);
    }
    // solve: o·l·r of SNOVA_I_S (80) and SNOVA_V_K (160), with a padded stride; one
    // singular system (two equal rows) per size.
    for (n, stride) in [(80usize, 96usize), (160, 192)] {
        for singular in [false, true] {
            // A random system is singular with probability ≈ 1/15: draw until the
            // portable kernel agrees with the intended case.
            let mut aug = nibbles(rng, n * stride);
            while !singular && !(r.solve)(&mut aug.clone(), n, stride, &mut vec![0u8; n]) {
                aug = nibbles(rng, n * stride);
            }
            if singular {
                let (first, rest) = aug.split_at_mut(stride);
                rest[(n / 2 - 1) * stride..(n / 2) * stride].copy_from_slice(first);
            }
            let mut want_aug = aug.clone();
            let mut want_x = vec![0u8; n];
            let want_ok = (r.solve)(&mut want_aug, n, stride, &mut want_x);
            let mut x = vec![0u8; n];
            vg::poison(&mut aug[..]);
            let mut ok = [(k.solve)(&mut aug, n, stride, &mut x) as u8];
            // Declassified: the non-singular flag decides the restart (documented).
            vg::unpoison(&mut ok[..]);
            vg::unpoison(&mut x[..]);
            let same = ok[0] == want_ok as u8 && (!want_ok || x == want_x);
            check(&mut done, "solve", same && want_ok != singular);
        }
    }
    done
}

/// AES-128-CTR on a poisoned key: the backend's engine (portable: bitsliced; avx2:
/// AES-NI; avx512: VAES, not run under valgrind) including its key expansion. SNOVA's
/// AES key is the public seed, but the engines are general-purpose kernels that claim
/// constant time.
pub fn check_aes(b: Backend, rng: &mut Rng) -> Vec<&'static str> {
    let mut done = Vec::new();
    for len in [16usize, 100, 16 * 17 + 5] {
        let mut key: [u8; 16] = rng.bytes();
        let mut want = vec![0u8; len];
        xof::aes128_ctr(Backend::Portable, &key, &mut want);
        let mut out = vec![0u8; len];
        vg::poison(&mut key[..]);
        xof::aes128_ctr(black_box(b), &key, &mut out);
        vg::unpoison(&mut out[..]);
        check(&mut done, "aes128_ctr", out == want);
    }
    done
}

/// Scheme level: key generation (T12 from the private seed, F12, P22) and secret-key
/// expansion (T12, F12, F21) with the private seed poisoned, for an l = 4 and an l = 5
/// set. Signing as a whole is not checked: its restart on a singular system branches on
/// `solve`'s flag inside the signer (documented; the flag itself is covered above).
pub fn check_scheme(b: Backend, rng: &mut Rng) -> Vec<&'static str> {
    let mut done = Vec::new();
    for ps in [ParamSet::SnovaIS, ParamSet::SnovaVS] {
        let mut sk_bytes = [0u8; 96];
        sk_bytes[..48].copy_from_slice(&rng.bytes::<48>());
        let want_pk = SigningKey::from_bytes(ps, &sk_bytes)
            .and_then(|k| k.with_backend(Backend::Portable))
            .map(|k| k.verifying_key().to_bytes().to_vec())
            .expect("valid key bytes");
        // Poison s_priv (bytes 16..48); the pk hash (48..96) is only hashed into targets.
        vg::poison(&mut sk_bytes[16..48]);
        let sk = SigningKey::from_bytes(ps, &sk_bytes)
            .and_then(|k| k.with_backend(black_box(b)))
            .expect("valid key bytes");
        let mut pk = sk.verifying_key().to_bytes().to_vec();
        // The poison must reach the output (P22 depends on T12), or the check is vacuous.
        // With feature ct-check the library declassifies P22 (the public key) at the end
        // of key generation, so it must then be defined instead; propagation through a
        // whole SNOVA operation is then shown by `ct_whole --canary`.
        if let Some(v) = vg::vbits(&pk[16..]) {
            if cfg!(feature = "ct-check") {
                assert!(
                    v.iter().all(|&x| x == 0),
                    "P22 not declassified by the library"
                );
            } else {
                assert!(v.iter().any(|&x| x != 0), "poisoned seed did not reach P22");
            }
        }
        vg::unpoison(&mut pk[..]);
        check(
            &mut done,
            "snova keygen (P22 from the seeds)",
            pk == want_pk,
        );
        let expanded = black_box(sk.expand());
        drop(expanded);
        check(&mut done, "snova sk expansion", true);
    }
    done
}

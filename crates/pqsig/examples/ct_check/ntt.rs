//! The NTT-variant part of the constant-time check: every variant of `kernels::ntt`
//! (radix-2, radix-4, Winograd-8, Winograd-16) on every backend valgrind can run, forward
//! and inverse, for both moduli, on poisoned inputs (the transforms see secrets: ML-DSA
//! s1, s2, t0, y; Falcon f, g). The default variant of each (modulus, backend) is also
//! covered by the ML-DSA and Falcon kernel checks; this pass reaches the others, which
//! `PQSIG_NTT` or `set_ntt_variant` can select.

use super::{check, same_mod_q, vg, Rng};
use pqsig::kernels::mldsa::{Poly, Q};
use pqsig::kernels::ntt::{falcon_kernels, mldsa_kernels, NttVariant};
use pqsig::Backend;
use std::hint::black_box;

const FALCON_Q: i32 = 12289;

pub fn check_variants(b: Backend, rng: &mut Rng) -> Vec<&'static str> {
    let mut done = Vec::new();
    for &v in NttVariant::ALL {
        let k = black_box(mldsa_kernels(b, v));
        let r = mldsa_kernels(Backend::Portable, NttVariant::Radix2);
        type Unary = fn(&mut [Poly]);
        let ops: [(&'static str, Unary, Unary); 2] = [
            ("ntt variant ml-dsa ntt", k.ntt, r.ntt),
            (
                "ntt variant ml-dsa invntt",
                k.invntt_tomont,
                r.invntt_tomont,
            ),
        ];
        for (name, f, g) in ops {
            let mut a = rng.polys(2, -Q + 1, Q - 1);
            let mut want = a.clone();
            g(&mut want);
            vg::poison(&mut a[..]);
            f(&mut a);
            vg::unpoison(&mut a[..]);
            check(&mut done, name, same_mod_q(&a, &want));
        }
        let fk = black_box(falcon_kernels(b, v));
        let fr = falcon_kernels(Backend::Portable, NttVariant::Radix2);
        type FUnary = fn(&mut [u16], u32);
        let fops: [(&'static str, FUnary, FUnary); 2] = [
            ("ntt variant falcon ntt", fk.ntt, fr.ntt),
            ("ntt variant falcon intt", fk.intt, fr.intt),
        ];
        for logn in [4u32, 9, 10] {
            for (name, f, g) in fops {
                let n = 1usize << logn;
                let mut a: Vec<u16> = (0..2 * n)
                    .map(|_| rng.range(0, FALCON_Q - 1) as u16)
                    .collect();
                let mut want = a.clone();
                g(&mut want, logn);
                vg::poison(&mut a[..]);
                f(&mut a, logn);
                vg::unpoison(&mut a[..]);
                check(&mut done, name, a == want);
            }
        }
    }
    done
}

//! The NTT variants (kernels/ntt) against the reference kernels, on random inputs and at
//! the documented extremes: every variant, both moduli, every size, forward and inverse,
//! on every backend's table (a variant without a SIMD kernel on a backend runs the
//! portable variant kernel there; the check covers what the table really calls).
//!
//! * ML-DSA (q = 8380417, n = 256): congruent to the portable reference, within the seam
//!   bounds (forward < 9q, inverse < 3q/4) and the variant's own documented ones
//!   (Winograd-8 forward < 8q, Winograd-16 < 6q); radix-2 and radix-4 bit-identical to
//!   the reference; NTT-based products against schoolbook; round trips.
//! * Falcon (q = 12289, logn 1..=10): bit-identical to the portable reference (canonical
//!   residues), forward and inverse; round trips.
//! * Operation counts: the instrumented build equals the closed forms.
//!
//! Kernel tables are fetched explicitly (`kernels::ntt::mldsa_kernels(b, v)`), so no
//! process-wide state is touched here.

mod common;

use common::{
    check_congruent, check_invntt_extremes, check_ntt_inverse_round_trip, check_ntt_products,
    check_transform, max_abs, XorShift, N, QL,
};
use pqsig::kernels::falcon::ntt as fntt;
use pqsig::kernels::mldsa::{self, Kernels, Poly};
use pqsig::kernels::ntt::opcount::{closed_form, instrumented, instrumented_dft, OpCounts};
use pqsig::kernels::ntt::{falcon_kernels, mldsa_kernels, NttVariant};
use pqsig::Backend;

/// The documented forward output bound of a variant, as (num, den) of q.
fn fwd_bound(v: NttVariant) -> (i64, i64) {
    match v {
        NttVariant::Radix2 | NttVariant::Radix4 => (9, 1),
        NttVariant::Winograd8 => (8, 1),
        NttVariant::Winograd16 => (6, 1),
    }
}

fn reference() -> &'static Kernels {
    let k = mldsa::base_kernels(Backend::Portable);
    assert_eq!(k.backend, Backend::Portable);
    k
}

#[test]
fn mldsa_variants_match_reference() {
    let pk = reference();
    for b in Backend::available() {
        for &v in NttVariant::ALL {
            let k = mldsa_kernels(b, v);
            assert_eq!(k.backend, mldsa::base_kernels(b).backend);
            let what = format!("ntt {v} on {b}");
            let seen = check_transform(
                &what,
                |k| k.ntt,
                pk,
                &[k],
                0x51ED_270B_1C3A_9F01,
                fwd_bound(v),
            );
            println!("{what}: largest |output| {:.3}q", seen as f64 / QL as f64);
            let what = format!("invntt {v} on {b}");
            let seen = check_transform(
                &what,
                |k| k.invntt_tomont,
                pk,
                &[k],
                0x7A3C_0D15_E4F2_8B69,
                (3, 4),
            );
            println!("{what}: largest |output| {:.3}q", seen as f64 / QL as f64);
            check_invntt_extremes(pk, k);
            check_ntt_inverse_round_trip(k);
        }
    }
}

/// Radix-2 and radix-4 do the reference's operations: bit-identical outputs, on every
/// backend where they run portable code (and the portable generic radix-2 too).
#[test]
fn mldsa_radix2_radix4_bit_identical() {
    let pk = reference();
    let mut rng = XorShift(0xB17_1DE7);
    let generic: [fn(&mut [Poly]); 4] = [
        pqsig::kernels::ntt::portable::mldsa_ntt_radix2,
        pqsig::kernels::ntt::portable::mldsa_invntt_radix2,
        pqsig::kernels::ntt::portable::mldsa_ntt_radix4,
        pqsig::kernels::ntt::portable::mldsa_invntt_radix4,
    ];
    for round in 0..200 {
        let input = rng.polys(1 + round % 4, -(QL - 1), QL - 1);
        let mut f = input.clone();
        (pk.ntt)(&mut f);
        let mut i = input.clone();
        (pk.invntt_tomont)(&mut i);
        for (j, g) in generic.iter().enumerate() {
            let mut x = input.clone();
            g(&mut x);
            assert_eq!(
                x,
                if j % 2 == 0 { f.clone() } else { i.clone() },
                "round {round} fn {j}"
            );
        }
    }
}

/// Forward transforms at the extremes: every coefficient ±(q − 1), alternating signs,
/// one spike; outputs congruent to the reference and within the variant's bound.
#[test]
fn mldsa_forward_extremes() {
    let pk = reference();
    let mut inputs = Vec::new();
    for v in [QL - 1, -(QL - 1)] {
        inputs.push(Poly {
            coeffs: [v as i32; N],
        });
        let mut alt = Poly {
            coeffs: [v as i32; N],
        };
        for (i, c) in alt.coeffs.iter_mut().enumerate() {
            if i % 2 == 1 {
                *c = -*c;
            }
        }
        inputs.push(alt);
        let mut spike = Poly::default();
        spike.coeffs[0] = v as i32;
        inputs.push(spike);
    }
    for b in Backend::available() {
        for &v in NttVariant::ALL {
            let k = mldsa_kernels(b, v);
            let mut want = inputs.clone();
            (pk.ntt)(&mut want);
            let mut got = inputs.clone();
            (k.ntt)(&mut got);
            let (num, den) = fwd_bound(v);
            check_congruent(&format!("ntt {v} on {b} (extremes)"), &want, &got, num, den);
            println!(
                "ntt {v} on {b}, extremes: {:.3}q",
                max_abs(&got) as f64 / QL as f64
            );
        }
    }
}

#[test]
fn mldsa_variant_products_match_schoolbook() {
    // Mixed tables: NTT-domain data is interchangeable between variants and backends.
    let pk = reference();
    let mut combos = Vec::new();
    for b in Backend::available() {
        for &v in NttVariant::ALL {
            let k = mldsa_kernels(b, v);
            combos.push((k, k, k));
            combos.push((k, pk, pk));
            combos.push((pk, pk, k));
        }
    }
    check_ntt_products(&combos);
}

/// Canonical random polynomials mod 12289, some with extreme coefficients.
fn falcon_polys(rng: &mut XorShift, count: usize, n: usize) -> Vec<u16> {
    let mut v = Vec::with_capacity(count * n);
    for p in 0..count {
        let mode = (rng.next() % 4) as usize + p;
        for _ in 0..n {
            v.push(match mode % 4 {
                0 => [0u16, 12288, 1, 6144][(rng.next() % 4) as usize],
                _ => (rng.next() % 12289) as u16,
            });
        }
    }
    v
}

#[test]
fn falcon_variants_match_reference_bit_for_bit() {
    let pk = fntt::base_kernels(Backend::Portable);
    let mut rng = XorShift(0xFA1C_0123_4567_89AB);
    for b in Backend::available() {
        for &v in NttVariant::ALL {
            let k = falcon_kernels(b, v);
            for logn in 1..=10u32 {
                let n = 1usize << logn;
                let rounds = if logn >= 9 { 12 } else { 24 };
                for round in 0..rounds {
                    let count = 1 + round % 3;
                    let input = falcon_polys(&mut rng, count, n);
                    let mut want = input.clone();
                    (pk.ntt)(&mut want, logn);
                    let mut got = input.clone();
                    (k.ntt)(&mut got, logn);
                    assert_eq!(
                        want, got,
                        "falcon ntt {v} on {b}, logn {logn}, round {round}"
                    );
                    let mut want_i = input.clone();
                    (pk.intt)(&mut want_i, logn);
                    let mut got_i = input.clone();
                    (k.intt)(&mut got_i, logn);
                    assert_eq!(
                        want_i, got_i,
                        "falcon intt {v} on {b}, logn {logn}, round {round}"
                    );
                    // Round trip.
                    (k.intt)(&mut got, logn);
                    assert_eq!(got, input, "falcon intt(ntt) {v} on {b}, logn {logn}");
                }
                // Extremes: all q − 1, all 0.
                for c in [12288u16, 0] {
                    let input = vec![c; n];
                    let mut want = input.clone();
                    (pk.ntt)(&mut want, logn);
                    let mut got = input.clone();
                    (k.ntt)(&mut got, logn);
                    assert_eq!(want, got);
                    assert!(got.iter().all(|&x| x < 12289));
                }
            }
        }
    }
}

/// A deliberately wrong kernel must be caught by the checks above (the tests can fail).
#[test]
fn checks_can_fail() {
    let pk = reference();
    let bad = Kernels {
        ntt: |a: &mut [Poly]| {
            pqsig::kernels::ntt::portable::mldsa_ntt_winograd8(a);
            a[0].coeffs[17] += 1;
        },
        ..*reference()
    };
    let r = std::panic::catch_unwind(|| {
        check_transform("bad", |k| k.ntt, pk, &[&bad], 1, (9, 1));
    });
    assert!(r.is_err(), "a wrong coefficient went unnoticed");
}

#[test]
fn instrumented_counts_equal_closed_forms() {
    for &v in NttVariant::ALL {
        for logn in 1..=10u32 {
            for mldsa in [true, false] {
                for inverse in [false, true] {
                    let got = instrumented(v, logn, mldsa, inverse);
                    let want = closed_form(v, logn, mldsa, inverse);
                    assert_eq!(got, want, "{v} logn {logn} mldsa {mldsa} inverse {inverse}");
                }
            }
        }
    }
    // Spot values (n = 256, ML-DSA, forward).
    let f = |v| closed_form(v, 8, true, false);
    assert_eq!(
        f(NttVariant::Radix2),
        OpCounts {
            mul: 1024,
            add: 2048,
            reduce: 0
        }
    );
    assert_eq!(
        f(NttVariant::Radix4),
        OpCounts {
            mul: 1024,
            add: 2048,
            reduce: 0
        }
    );
    assert_eq!(
        f(NttVariant::Winograd8),
        OpCounts {
            mul: 960,
            add: 2176,
            reduce: 64
        }
    );
    assert_eq!(
        f(NttVariant::Winograd16),
        OpCounts {
            mul: 928,
            add: 2240,
            reduce: 288
        }
    );
    // The cyclic cores alone.
    assert_eq!(
        instrumented_dft(8, true),
        OpCounts {
            mul: 4,
            add: 26,
            reduce: 0
        }
    );
    assert_eq!(
        instrumented_dft(8, false),
        OpCounts {
            mul: 4,
            add: 26,
            reduce: 0
        }
    );
    assert_eq!(
        instrumented_dft(16, true),
        OpCounts {
            mul: 14,
            add: 70,
            reduce: 8
        }
    );
    assert_eq!(
        instrumented_dft(16, false),
        OpCounts {
            mul: 14,
            add: 70,
            reduce: 0
        }
    );
}

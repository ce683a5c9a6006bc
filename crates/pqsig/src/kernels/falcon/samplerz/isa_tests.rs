//! Test bodies shared by the SIMD samplers' unit tests: one body per check, called from
//! the test module of each ISA file (`avx2.rs`, `avx512.rs`) with that ISA's kernels.
//! Those tests are `ignore`d where the build host lacks the ISA (build.rs) and assert
//! it at run time, so a missing ISA never passes silently.

use super::portable::rcdt_scan;
use super::{in_domain, split_request, Request, Window, LAST_SLOT_START, SLOT};
use crate::kernels::falcon::fpr::{self, Fpr};

/// Builds the window's whole slot cache from its read position (`anchor` with the ISA's
/// cache kind, then every batch).
pub(super) type Rebuild = unsafe fn(&mut Window);

/// The log-domain first-byte test of one request (`1/σ`, `ccs`, `μ`) on the cached slots
/// `k .. k + 8`: `floor(μ)` and the bit masks (sure accept, sure reject, serial reduction
/// negative).
pub(super) type Decide8 = unsafe fn(&Window, usize, f64, f64, f64) -> (f64, u32, u32, u32);

/// The message of a per-ISA test run on a CPU without its ISA (`--include-ignored`, a
/// target folder built on another machine; see build.rs): it fails, never passes.
pub(super) const MISSING: &str = "this CPU lacks the ISA of this test (see build.rs)";

struct Xs(u64);

impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn f(x: Fpr) -> f64 {
    f64::from_bits(x.to_bits())
}

/// Exact first-byte BerExp outcome of the serial code for `x`, `ccs` and byte `w`:
/// Some(accept), or None when `w` equals the threshold's top byte.
fn exact(x: Fpr, ccs: Fpr, w: u32) -> Option<bool> {
    let s = x.mul(fpr::INV_LOG2).trunc() as i32;
    let r = x.sub(Fpr::of(s as i64).mul(fpr::LOG2));
    let sw = (s as u32).min(63);
    let z = (fpr::expm_p63(r, ccs) << 1).wrapping_sub(1) >> sw;
    let top = (z >> 56) as u32;
    (w != top).then_some(w < top)
}

/// The cache holds the serial code's z and c for every slot, and every sure decision
/// of the log-domain test equals the serial one, on random windows and requests,
/// half of them with the BerExp byte set next to the exact threshold byte.
///
/// # Safety
///
/// The CPU has the features `rebuild` and `decide` are compiled for.
pub(super) unsafe fn cache_and_decisions_are_exact(rebuild: Rebuild, decide: Decide8) {
    let mut rng = Xs(0x0DDB_A11C_AC4E_0001);
    let (mut undecided, mut spurious, mut checked) = (0u32, 0u32, 0u32);
    for round in 0..4000u32 {
        let logn = 1 + (rng.next() % 10) as usize;
        let sm = fpr::SIGMA_MIN[logn];
        let smf = f(sm);
        let sigma = smf + rng.unit() * (1.8205 - smf);
        let req = Request {
            mu: Fpr::from_bits(((rng.unit() - 0.5) * 200.0).to_bits()),
            isigma: Fpr::from_bits((1.0 / sigma).to_bits()),
        };
        let (_, r, dss, ccs) = split_request(&req, sm);
        let mut w = Window::default();
        for b in w.bytes.iter_mut() {
            *b = rng.next() as u8;
        }
        // Mostly small z0 (as the real draws), sometimes anything.
        let start = (rng.next() % (LAST_SLOT_START as u64 + 1)) as usize;
        let count = (LAST_SLOT_START - start) / SLOT + 1;
        let xs: alloc::vec::Vec<Fpr> = (0..count)
            .map(|i| {
                let q = start + SLOT * i;
                let mut lo = [0u8; 8];
                lo.copy_from_slice(&w.bytes[q..q + 8]);
                let lo = u64::from_le_bytes(lo);
                let hi = w.bytes[q + 8] as u32;
                let v = [
                    (lo as u32) & 0xFF_FFFF,
                    ((lo >> 24) as u32) & 0xFF_FFFF,
                    ((lo >> 48) as u32) | (hi << 16),
                ];
                let z0 = rcdt_scan(&v);
                let b = (w.bytes[q + 9] & 1) as i32;
                let z = b + ((b << 1) - 1) * z0;
                let x = Fpr::of(z as i64).sub(r).sqr().mul(dss);
                let x = x.sub(Fpr::of((z0 * z0) as i64).mul(fpr::INV_2SQRSIGMA0));
                if round % 2 == 1 {
                    // A byte next to the threshold byte.
                    let s = x.mul(fpr::INV_LOG2).trunc() as i32;
                    let rr = x.sub(Fpr::of(s as i64).mul(fpr::LOG2));
                    let zz = (fpr::expm_p63(rr, ccs) << 1).wrapping_sub(1) >> (s as u32).min(63);
                    let top = (zz >> 56) as i64;
                    w.bytes[q + 10] = (top + (rng.next() % 3) as i64 - 1).clamp(0, 255) as u8;
                }
                x
            })
            .collect();
        w.pos = start;
        // SAFETY: the CPU has `rebuild`'s features (this function's contract).
        unsafe { rebuild(&mut w) };
        assert_eq!((w.cache.start, w.cache.count), (start, count));
        assert!(w.cache.ready >= count);
        let isg = f(req.isigma);
        let ccsf = isg * smf;
        if !in_domain(f(req.mu), isg, ccsf) {
            continue;
        }
        for k in (0..count).step_by(8) {
            // SAFETY: the CPU has `decide`'s features (this function's contract).
            let (fl, a, j, bad) = unsafe { decide(&w, k, isg, ccsf, f(req.mu)) };
            assert_eq!(fl, req.mu.floor() as f64);
            for l in 0..(count - k).min(8) {
                let i = k + l;
                let q = start + SLOT * i;
                let (z, c) = (w.cache.zd[i], w.cache.c[i]);
                let xi = Fpr::from_bits(
                    (Fpr::from_bits(z.to_bits())
                        .sub(r)
                        .sqr()
                        .mul(dss)
                        .sub(Fpr::from_bits(c.to_bits())))
                    .to_bits(),
                );
                assert_eq!(xi.to_bits(), xs[i].to_bits(), "round {round}: slot {i}: x");
                let want = exact(xs[i], ccs, w.bytes[q + 10] as u32);
                let (ai, ji, bi) = ((a >> l) & 1 == 1, (j >> l) & 1 == 1, (bad >> l) & 1 == 1);
                checked += 1;
                if bi {
                    undecided += 1;
                    continue;
                }
                assert!(!(ai && ji));
                match want {
                    Some(true) => assert!(!ji, "round {round}: slot {i}: wrongly rejected"),
                    Some(false) => assert!(!ai, "round {round}: slot {i}: wrongly accepted"),
                    None => assert!(!ai && !ji, "round {round}: slot {i}: equal byte decided"),
                }
                if !ai && !ji {
                    undecided += 1;
                    spurious += want.is_some() as u32;
                }
            }
        }
    }
    assert!(undecided > 0 && checked > 50_000, "{undecided} {checked}");
    assert!(
        spurious <= 2,
        "{spurious} slots left undecided by the margin"
    );
}

/// `n` uniform values in [0, 1) from `seed` (the xorshift of the tests above).
pub(super) fn unit_values(seed: u64, n: usize) -> impl Iterator<Item = f64> {
    let mut rng = Xs(seed);
    (0..n).map(move |_| rng.unit())
}

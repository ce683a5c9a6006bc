//! Which one-state Keccak-f\[1600\] each x86 backend runs: measured once, at first use.
//!
//! A sponge's permutations run one after the other, so the one-state permutation is
//! bound by instruction throughput, and which form is fastest depends on the core, not on
//! the instruction set (docs/PERFORMANCE.md, "One-state Keccak per CPU"):
//!
//! | CPU | scalar (`keccak_f1600`) | ymm state (`f1600_avx2`) | xmm lanes (`f1600_avx512`) |
//! |---|---|---|---|
//! | AMD Zen 3 | 906–1,750 ticks (slows when a neighbour shares the core) | 980, steady | — |
//! | AMD Zen 5 | 624 | 836 | 567 |
//! | Intel Sapphire Rapids | 840 | — | 605 |
//!
//! (Zen 3 and Zen 5: `examples/keccak_ticks`, 2026-11-29, docs/PERFORMANCE.md; Sapphire
//! Rapids: `f1600_avx512`'s module note, an earlier run on that machine.)
//!
//! So each backend has a vector form and the scalar form as candidates, and the first
//! permutation a backend runs times both (median of 9 samples of 16 back-to-back
//! permutations each, about 40 µs in all) and keeps the winner for the process. The
//! vector form is preferred: the scalar one must be at least [`SCALAR_MARGIN_PCT`] %
//! faster, because scalar Keccak fills the integer ports that a hyperthread sibling also
//! needs and loses more than the measured margin when one is busy (Zen 3 above), while
//! the vector forms run steadily.
//!
//! Both candidates compute the same function (tested against the reference for every
//! candidate, not only the chosen one), so the choice changes speed, never results. The
//! measurement permutes a fixed public state: nothing secret is timed.

use super::f1600::keccak_f1600;
use crate::kernels::select::Backend;
use core::sync::atomic::{AtomicU8, Ordering};

/// A one-state permutation implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permute1Impl {
    /// The portable scalar code (25 lanes in general registers).
    Scalar,
    /// `f1600_avx2`: the state in seven ymm registers (AVX2).
    Ymm,
    /// `f1600_avx512`: one lane per xmm register, `vpternlogq`/`vprolq` (AVX-512F/VL).
    Avx512Lanes,
}

impl Permute1Impl {
    /// Short name, for the bench's header and docs.
    pub fn name(self) -> &'static str {
        match self {
            Permute1Impl::Scalar => "scalar",
            Permute1Impl::Ymm => "ymm",
            Permute1Impl::Avx512Lanes => "avx512-lanes",
        }
    }

    fn code(self) -> u8 {
        match self {
            Permute1Impl::Scalar => 1,
            Permute1Impl::Ymm => 2,
            Permute1Impl::Avx512Lanes => 3,
        }
    }

    fn from_code(c: u8) -> Option<Self> {
        match c {
            1 => Some(Permute1Impl::Scalar),
            2 => Some(Permute1Impl::Ymm),
            3 => Some(Permute1Impl::Avx512Lanes),
            _ => None,
        }
    }
}

/// How much faster (in percent of the vector form's time) the scalar form must measure to
/// be chosen.
pub const SCALAR_MARGIN_PCT: u64 = 10;

/// The candidates of backend `b`: its vector form first, then the scalar form. Portable
/// (and any backend without a vector form) has only the scalar one.
pub fn candidates(b: Backend) -> &'static [Permute1Impl] {
    match b {
        Backend::Avx2 => &[Permute1Impl::Ymm, Permute1Impl::Scalar],
        Backend::Avx512 => &[Permute1Impl::Avx512Lanes, Permute1Impl::Scalar],
        _ => &[Permute1Impl::Scalar],
    }
}

/// The rule, apart from the clock: given the vector form's and the scalar form's measured
/// times, the form to run.
pub fn decide(vector: Permute1Impl, vector_ticks: u64, scalar_ticks: u64) -> Permute1Impl {
    if scalar_ticks.saturating_mul(100) < vector_ticks.saturating_mul(100 - SCALAR_MARGIN_PCT) {
        Permute1Impl::Scalar
    } else {
        vector
    }
}

/// Runs `imp` once on `s`, if the CPU has what it needs (the portable code otherwise).
#[inline(always)]
pub fn run(imp: Permute1Impl, s: &mut [u64; 25]) {
    match imp {
        #[cfg(target_arch = "x86_64")]
        Permute1Impl::Ymm if Backend::Avx2.is_available() => {
            // SAFETY: AVX2 was detected on the line above.
            unsafe { super::f1600_avx2::keccak_f1600_avx2(s) }
        }
        #[cfg(target_arch = "x86_64")]
        Permute1Impl::Avx512Lanes if Backend::Avx512.is_available() => {
            // SAFETY: AVX2 and AVX-512 F/VL/BW/DQ were detected on the line above.
            unsafe { super::f1600_avx512::keccak_f1600_avx512(s) }
        }
        _ => keccak_f1600(s),
    }
}

/// Per backend: 0 until measured, then the chosen form's code.
static CHOSEN_AVX2: AtomicU8 = AtomicU8::new(0);
static CHOSEN_AVX512: AtomicU8 = AtomicU8::new(0);

/// The form backend `b` runs (measured on the first call for that backend; two threads
/// racing on the first call may both measure, and either result is a valid choice).
#[inline]
pub fn chosen(b: Backend) -> Permute1Impl {
    let cell = match b {
        Backend::Avx2 => &CHOSEN_AVX2,
        Backend::Avx512 => &CHOSEN_AVX512,
        _ => return Permute1Impl::Scalar,
    };
    if let Some(imp) = Permute1Impl::from_code(cell.load(Ordering::Relaxed)) {
        return imp;
    }
    let imp = measure(b);
    cell.store(imp.code(), Ordering::Relaxed);
    imp
}

/// Times the candidates of `b` and applies [`decide`].
pub fn measure(b: Backend) -> Permute1Impl {
    let c = candidates(b);
    if c.len() < 2 || !b.is_available() {
        return Permute1Impl::Scalar;
    }
    let (vector, scalar) = (c[0], c[1]);
    decide(vector, ticks(vector), ticks(scalar))
}

/// Median over 9 samples of the time of 16 back-to-back permutations by `imp`, after 16
/// to warm up (TSC ticks on x86-64; elsewhere there is only one candidate).
fn ticks(imp: Permute1Impl) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_rdtsc;
        let mut s: [u64; 25] = core::array::from_fn(|i| i as u64);
        for _ in 0..16 {
            run(imp, &mut s);
        }
        let mut t = [0u64; 9];
        for v in t.iter_mut() {
            // SAFETY: rdtsc exists on every x86-64 CPU.
            let t0 = unsafe { _rdtsc() };
            for _ in 0..16 {
                run(imp, core::hint::black_box(&mut s));
            }
            // SAFETY: as above.
            *v = unsafe { _rdtsc() }.wrapping_sub(t0);
        }
        t.sort_unstable();
        t[4]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = imp;
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::keccak::f1600::keccak_f1600_reference;

    /// Every candidate of every available backend is the permutation: whichever the
    /// measurement picks on a given CPU has been checked here.
    #[test]
    fn every_candidate_matches_reference() {
        for b in Backend::available() {
            for &imp in candidates(b) {
                let mut a: [u64; 25] =
                    core::array::from_fn(|i| (i as u64 + 3).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let mut r = a;
                for _ in 0..6 {
                    run(imp, &mut a);
                    keccak_f1600_reference(&mut r);
                    assert_eq!(a, r, "{b} {imp:?}");
                }
            }
        }
    }

    /// The choice is one of the backend's candidates, and it is kept.
    #[test]
    fn choice_is_a_candidate_and_stable() {
        for b in Backend::available() {
            let first = chosen(b);
            assert!(candidates(b).contains(&first), "{b}: {first:?}");
            for _ in 0..3 {
                assert_eq!(chosen(b), first, "{b}");
            }
            assert!(candidates(b).contains(&measure(b)), "{b}");
        }
    }

    /// The rule: the vector form unless the scalar one is more than the margin faster.
    #[test]
    fn decide_prefers_vector_within_margin() {
        let v = Permute1Impl::Ymm;
        assert_eq!(decide(v, 1000, 950), v); // 5 % faster: not enough
        assert_eq!(decide(v, 1000, 900), v); // exactly the margin: not enough
        assert_eq!(decide(v, 1000, 899), Permute1Impl::Scalar);
        assert_eq!(decide(v, 836, 624), Permute1Impl::Scalar); // Zen 5, avx2 backend
        assert_eq!(decide(v, 980, 906), v); // Zen 3 at its quietest
        assert_eq!(
            decide(Permute1Impl::Avx512Lanes, 567, 624),
            Permute1Impl::Avx512Lanes
        );
        assert_eq!(decide(v, 0, 0), v);
        assert_eq!(decide(v, u64::MAX, u64::MAX), v);
    }
}

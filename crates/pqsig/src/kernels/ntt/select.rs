//! Which NTT variant runs: pinned through the API, else `PQSIG_NTT`, else the default of
//! the (modulus, backend) pair. Decided once and cached, like the backend choice in
//! `kernels/select.rs`; the kernel tables resolve it to function pointers when a scheme
//! fetches its table (once per operation), never per call of a kernel.
//!
//! Order of precedence:
//! 1. [`set_ntt_variant`] (an API call; every variant runs on every backend, falling back
//!    to the portable variant kernel where a backend has no SIMD version);
//! 2. the `PQSIG_NTT` environment variable (`radix2`, `radix4`, `winograd8`,
//!    `winograd16`; with `std` only; an unknown value is ignored);
//! 3. [`default_variant`]: the fastest measured for the (modulus, backend) pair.

use super::variant::NttVariant;
use crate::kernels::select::Backend;
use core::sync::atomic::{AtomicU8, Ordering};

/// The two NTT moduli of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modulus {
    /// q = 8380417, n = 256 (ML-DSA).
    MlDsa,
    /// q = 12289, n = 2^logn ≤ 1024 (Falcon / FN-DSA).
    Falcon,
}

/// The default variant of a (modulus, backend) pair: the fastest measured there.
///
/// Measured with `pqsig-bench --no-schemes` (every variant on every backend interleaved
/// in one run; TSC ticks per polynomial, medians; 2026-11-21 18:12 run, table in
/// docs/NTT.md §4; forward / inverse):
/// * ML-DSA, portable: radix-4 2330 / 2562 beats radix-2 (the reference kernels)
///   2400 / 2841, Winograd-8 2572 / 2847 and Winograd-16 3291 / 3545. Radix-4 performs
///   the reference's operations, so its outputs are bit-identical to them.
/// * ML-DSA, AVX2: radix-2 (the hand-scheduled kernels) 579 / 560. Winograd-8's forward
///   is faster (524) but its inverse slower (582); signing runs about four inverse
///   transforms per forward one (ML-DSA-65: 6 forward, 23 inverse per attempt), so
///   radix-2 stays. Radix-4 643 / 823, Winograd-16 1013 / 762.
/// * ML-DSA, AVX-512: radix-2 292 / 322 (radix-4 474 / 483, Winograd-8 501 / 511,
///   Winograd-16 472 / 470).
/// * Falcon, portable: radix-2 8835 / 8028 at n = 512 (radix-4 10261 / 11229,
///   Winograd-8 9118 / 8774, Winograd-16 10077 / 10356); the same order at 1024.
/// * Falcon, AVX2: radix-4 788 / 777 at n = 512 and 1670 / 1602 at 1024 beats radix-2
///   850 / 802 and 1826 / 1670 (Winograd-8 895 / 927, Winograd-16 1196 / 1099).
///   Bit-identical (canonical residues).
/// * Falcon, AVX-512: radix-2 (`falcon/ntt/avx512.rs`) 559 / 493 at 512 and 1103 / 957
///   at 1024 (Winograd-8 631 / 696, radix-4 737 / 760, Winograd-16 747 / 788).
///
/// `b` is the backend whose kernels run: the tables ask with the backend of the table
/// they start from, so a backend without ML-DSA or Falcon kernels of its own (NEON, or
/// one unavailable here) gets portable's default. Change an arm here when a measurement
/// says otherwise.
pub fn default_variant(m: Modulus, b: Backend) -> NttVariant {
    match (m, b) {
        (Modulus::MlDsa, Backend::Portable) => NttVariant::Radix4,
        (Modulus::MlDsa, _) => NttVariant::Radix2,
        (Modulus::Falcon, Backend::Avx2) => NttVariant::Radix4,
        (Modulus::Falcon, _) => NttVariant::Radix2,
    }
}

/// 0 = not yet decided; 5 = decided, no override; otherwise `NttVariant::to_u8`.
static PINNED: AtomicU8 = AtomicU8::new(0);
const NO_OVERRIDE: u8 = 5;

/// The variant named by `PQSIG_NTT`, if set to a known name.
pub fn env_override() -> Option<NttVariant> {
    #[cfg(feature = "std")]
    {
        let v = std::env::var("PQSIG_NTT").ok()?;
        NttVariant::from_name(&v)
    }
    #[cfg(not(feature = "std"))]
    {
        None
    }
}

/// The process-wide override (API pin or environment), if any; decided on first use.
pub fn pinned() -> Option<NttVariant> {
    match PINNED.load(Ordering::Relaxed) {
        0 => {
            let v = env_override();
            PINNED.store(v.map_or(NO_OVERRIDE, NttVariant::to_u8), Ordering::Relaxed);
            v
        }
        x => NttVariant::from_u8(x),
    }
}

/// Pins the variant for every modulus and backend (tables fetched from now on).
pub fn set_ntt_variant(v: NttVariant) {
    PINNED.store(v.to_u8(), Ordering::Relaxed);
}

/// Removes any pin and ignores `PQSIG_NTT`: the defaults apply.
pub fn clear_ntt_variant() {
    PINNED.store(NO_OVERRIDE, Ordering::Relaxed);
}

/// Forgets the cached choice so that the next use reads `PQSIG_NTT` again.
pub fn reset() {
    PINNED.store(0, Ordering::Relaxed);
}

/// The variant a kernel table for this (modulus, backend) uses now.
#[inline]
pub fn variant_for(m: Modulus, b: Backend) -> NttVariant {
    pinned().unwrap_or_else(|| default_variant(m, b))
}

/// Runs `f` once under each variant, pinned process-wide in turn, then restores the
/// previous choice. Calls are serialised by a process-wide lock, so that two callers
/// (test threads) do not change the pin under each other; code that does not call this
/// meanwhile simply runs under whichever variant is pinned (every one is exact). For the
/// vector suites, which run every test under every variant this way.
#[cfg(feature = "std")]
pub fn for_each_variant(mut f: impl FnMut(NttVariant)) {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    struct Restore(u8);
    impl Drop for Restore {
        fn drop(&mut self) {
            PINNED.store(self.0, Ordering::Relaxed);
        }
    }
    let _restore = Restore(PINNED.load(Ordering::Relaxed));
    for &v in NttVariant::ALL {
        set_ntt_variant(v);
        f(v);
    }
}

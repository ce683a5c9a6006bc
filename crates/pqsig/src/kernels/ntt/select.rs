//! Which NTT variant runs (`ntt-study` only): pinned through the API, else `PQSIG_NTT`,
//! else the default of the (modulus, backend) pair (the production table). Decided once and cached, like the backend choice in
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

/// The default variant of a (modulus, backend) pair: the fastest measured there, i.e.
/// the variant of the production table (`production.rs`, which runs when nothing is
/// pinned; keep the two in step).
///
/// Why each arm (the measurements, dated, are in docs/NTT.md §4; `pqsig-bench
/// --no-schemes` times every variant on every backend interleaved in one run):
/// * ML-DSA, portable: radix-4 performs the reference's operations in a cache-friendlier
///   order, so it is bit-identical to the reference kernels and was the fastest there.
/// * ML-DSA, SIMD backends: the hand-scheduled radix-2 kernels. On AVX2 Winograd-8's
///   forward transform was faster but its inverse slower, and signing runs about four
///   inverse transforms per forward one, so radix-2 stays.
/// * Falcon, AVX2: radix-4 was the fastest at n = 512 and 1024, with canonical residues
///   (bit-identical output).
/// * Falcon, portable and AVX-512: radix-2 was the fastest.
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

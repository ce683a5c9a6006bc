//! The production NTT of each (modulus, backend) pair: one transform per pair, fixed at
//! compile time.
//!
//! Every pair runs its backend's own radix-2 kernels (`kernels/mldsa`,
//! `kernels/falcon/ntt`) except the two where a measured variant was faster (NTT.md §4):
//! * ML-DSA, portable: radix-4 (`portable.rs`) — the reference's very operations in a
//!   cache-friendlier order, so bit-identical output;
//! * Falcon, AVX2: radix-4 on the SIMD body (`avx2/falcon.rs`) — canonical residues, so
//!   bit-identical output, fastest at n = 512 and 1024. It is AVX2's only Falcon NTT:
//!   `falcon::ntt::avx2::KERNELS` names it, so that table is already the production one.
//!
//! With the `ntt-study` feature a pinned variant (`select.rs`, `PQSIG_NTT`) replaces these
//! tables by the study's (`dispatch.rs`); with no pin, the tables below run.

use crate::kernels::falcon::ntt::{self as fntt, NttKernels};
use crate::kernels::mldsa::{self, Kernels};
use crate::kernels::select::Backend;

/// ML-DSA on the portable backend: radix-4 transforms, the rest portable.
pub(crate) static MLDSA_PORTABLE: Kernels = Kernels {
    ntt: super::portable::mldsa_ntt_radix4,
    invntt_tomont: super::portable::mldsa_invntt_radix4,
    ..mldsa::portable::KERNELS
};

/// The production ML-DSA table of the backend whose kernels run for `b` (portable where
/// `b` is unavailable here).
fn mldsa_production(b: Backend) -> &'static Kernels {
    let base = mldsa::base_kernels(b);
    match base.backend {
        Backend::Portable => &MLDSA_PORTABLE,
        _ => base,
    }
}

/// The ML-DSA table of a backend as run now: routed to the kernel device while one is
/// set (`kernels::device`), else (with `ntt-study`) the pinned variant's, else the
/// production table.
#[inline]
pub(crate) fn mldsa_selected(b: Backend) -> &'static Kernels {
    #[cfg(feature = "std")]
    if crate::kernels::device::active() {
        return crate::kernels::device::mldsa_routed(b);
    }
    #[cfg(feature = "ntt-study")]
    if let Some(v) = super::select::pinned() {
        return super::dispatch::mldsa_kernels(mldsa::base_kernels(b).backend, v);
    }
    mldsa_production(b)
}

/// The Falcon NTT table of a backend as run now (as [`mldsa_selected`]).
#[inline]
pub(crate) fn falcon_selected(b: Backend) -> &'static NttKernels {
    #[cfg(feature = "std")]
    if crate::kernels::device::active() {
        return crate::kernels::device::falcon_routed(b);
    }
    #[cfg(feature = "ntt-study")]
    if let Some(v) = super::select::pinned() {
        return super::dispatch::falcon_kernels(fntt::base_kernels(b).backend, v);
    }
    fntt::base_kernels(b)
}

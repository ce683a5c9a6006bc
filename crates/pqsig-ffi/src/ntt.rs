//! `pqsig_mldsa_ntt_batch`: the ML-DSA NTT and inverse NTT of a batch of polynomials for
//! C code shaped like the pq-crystals reference (liboqs's ML-DSA `ref` implementation
//! calls it from its polynomial-vector functions, hw/liboqs), through the kernel device
//! `PQSIG_DEVICE` names (the card) or the CPU kernels.
//!
//! The conversion between the reference's conventions and the library's kernels happens
//! here, on both sides of the kernel call:
//! * in: every coefficient is reduced to its centred residue, so any `int32_t` is taken
//!   and the kernels' precondition |a| < q holds (the reference's `ntt` and
//!   `invntt_tomont` assume |a| < q; congruent inputs give congruent outputs);
//! * out: every coefficient is the centred residue of the kernel's (or device's) answer,
//!   −(q−1)/2 ≤ r ≤ (q−1)/2. The library's kernels and the card return non-canonical
//!   residues inside their documented bounds (a card may return canonical ones), and the
//!   reference's callers need less than q in absolute value after `invntt_tomont` —
//!   keygen's `t = invntt(·) + s2; caddq(t)` needs |t| < q, which a canonical residue
//!   next to q would break. The centred residue meets every bound the reference assumes
//!   and is the same whichever device answered.

use super::{guard, pqsig_status, Fail};
use core::ffi::c_int;
use pqsig::batch::{transform_mldsa_on, MlDsaPoly, TransformMode};
use zeroize::Zeroizing;

/// The transforms of `pqsig_mldsa_ntt_batch` (its `mode` argument).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum pqsig_ntt_mode {
    /// The forward NTT of the pq-crystals reference `ntt()`: FIPS 204 NTT, bit-reversed
    /// output order (`a` evaluated at ζ^(2·brv8(i)+1), ζ = 1753).
    PQSIG_MLDSA_NTT = 0,
    /// The reference `invntt_tomont()`: the inverse NTT including the
    /// factor 1/256, times the Montgomery factor 2^32.
    PQSIG_MLDSA_INVNTT_TOMONT = 1,
}

const Q: i64 = 8_380_417;
const N: usize = 256;

/// The centred residue of `x` mod q.
#[inline]
fn centred(x: i32) -> i32 {
    let r = i64::from(x).rem_euclid(Q);
    // r < q < 2^23: both branches fit i32.
    (if r > (Q - 1) / 2 { r - Q } else { r }) as i32
}

/// Transforms `num_polys` ML-DSA polynomials (q = 8380417, n = 256) in place: `coeffs`
/// holds `num_polys * 256` coefficients, polynomial after polynomial (a `polyvecl` /
/// `polyveck` of the pq-crystals reference is exactly that). `mode` is a
/// `pqsig_ntt_mode`.
///
/// Semantics: for every input coefficient the output coefficient is congruent mod q
/// to what the reference `ntt()` (`PQSIG_MLDSA_NTT`) or `invntt_tomont()`
/// (`PQSIG_MLDSA_INVNTT_TOMONT`) computes from inputs with |a| < q, and is the centred
/// residue, −(q−1)/2 ≤ r ≤ (q−1)/2 (inside every bound the reference's callers assume).
/// Any `int32_t` input is accepted: it is reduced mod q first.
///
/// Where it runs: the whole batch is one request (split at the device's size limit) to
/// the kernel device `PQSIG_DEVICE` names (`card` or `card-per-call` with the card at
/// `PQSIG_CARD`), read once per process; the CPU kernels when it is unset or `cpu`. A
/// request the device fails runs on the CPU, so the result never depends on the device.
///
/// Returns `PQSIG_OK`; `PQSIG_ERR_NULL_POINTER` (`coeffs` NULL with `num_polys` > 0),
/// `PQSIG_ERR_INVALID_LENGTH` (`num_polys` too large to address),
/// `PQSIG_ERR_UNSUPPORTED` (an unknown `mode`, or `coeffs` not aligned for `int32_t`),
/// `PQSIG_ERR_DEVICE` (`PQSIG_DEVICE` names no kernel device). On failure `coeffs` is
/// unchanged. Thread-safe.
#[no_mangle]
pub unsafe extern "C" fn pqsig_mldsa_ntt_batch(
    coeffs: *mut i32,
    num_polys: usize,
    mode: c_int,
) -> pqsig_status {
    const F: &str = "pqsig_mldsa_ntt_batch";
    guard(F, || {
        let mode = match mode {
            m if m == pqsig_ntt_mode::PQSIG_MLDSA_NTT as c_int => TransformMode::MlDsaNtt,
            m if m == pqsig_ntt_mode::PQSIG_MLDSA_INVNTT_TOMONT as c_int => {
                TransformMode::MlDsaInvNttToMont
            }
            m => {
                return Err(Fail::new(
                    pqsig_status::PQSIG_ERR_UNSUPPORTED,
                    format!("{F}: unknown mode {m}"),
                ))
            }
        };
        if num_polys == 0 {
            return Ok(());
        }
        if coeffs.is_null() {
            return Err(Fail::null(F, "coeffs"));
        }
        let len = num_polys
            .checked_mul(N)
            .filter(|&l| l <= isize::MAX as usize / 4)
            .ok_or_else(|| {
                Fail::new(
                    pqsig_status::PQSIG_ERR_INVALID_LENGTH,
                    format!("{F}: num_polys {num_polys} too large"),
                )
            })?;
        if !coeffs.is_aligned() {
            return Err(Fail::new(
                pqsig_status::PQSIG_ERR_UNSUPPORTED,
                format!("{F}: coeffs is not aligned for int32_t"),
            ));
        }
        let dev = super::devices::kernel_device()
            .map_err(|m| Fail::new(pqsig_status::PQSIG_ERR_DEVICE, format!("{F}: {m}")))?;
        // SAFETY: `coeffs` is non-NULL, aligned, and the caller guarantees it points to
        // `num_polys * 256` writable int32_t (header contract); len * 4 <= isize::MAX.
        let coeffs = unsafe { core::slice::from_raw_parts_mut(coeffs, len) };
        // The library's polynomials are 64-byte aligned; the caller's buffer need not
        // be. Wiped when dropped: the polynomials can be secret (s1, y).
        let mut polys = Zeroizing::new(vec![MlDsaPoly::default(); num_polys]);
        for (p, c) in polys.iter_mut().zip(coeffs.chunks_exact(N)) {
            for (d, &s) in p.coeffs.iter_mut().zip(c) {
                *d = centred(s);
            }
        }
        let cpu = pqsig::kernels::mldsa::kernels(pqsig::backend::active());
        match dev {
            Some(dev) => transform_mldsa_on(dev.as_ref(), mode, &mut polys, cpu)
                .map_err(|e| Fail::new(e.into(), format!("{F}: {e}")))?,
            None if mode == TransformMode::MlDsaNtt => (cpu.ntt)(&mut polys),
            None => (cpu.invntt_tomont)(&mut polys),
        }
        for (p, c) in polys.iter().zip(coeffs.chunks_exact_mut(N)) {
            for (d, &s) in c.iter_mut().zip(p.coeffs.iter()) {
                *d = centred(s);
            }
        }
        Ok(())
    })
}

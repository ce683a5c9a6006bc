//! Falcon's compressed-signature decoder, per backend. The decoder itself is scheme code
//! (`falcon::codec::comp_decode_body`, always inlined); this module decides which build of
//! it runs: on x86-64 backends the same body compiled for LZCNT/BMI1/BMI2 (`lzcnt` for the
//! unary counts, `shlx` for the variable shifts), when the CPU has them.

use crate::kernels::select::Backend;

/// One backend's codec kernels.
pub struct CodecKernels {
    pub backend: Backend,
    /// comp(s2) into `x` (a power-of-two length ≤ 1024) from the start of `buf`: the bytes
    /// consumed, or `None` for a malformed encoding (see `falcon::codec::comp_decode`).
    pub comp_decode: fn(x: &mut [i16], buf: &[u8]) -> Option<usize>,
}

static PORTABLE: CodecKernels = CodecKernels {
    backend: Backend::Portable,
    comp_decode: crate::falcon::codec::comp_decode_body,
};

#[cfg(target_arch = "x86_64")]
static BMI: CodecKernels = CodecKernels {
    backend: Backend::Avx2,
    comp_decode: comp_decode_bmi,
};

/// The codec kernels of backend `b`: the BMI build for AVX2 and AVX-512 when the CPU has
/// LZCNT, BMI1 and BMI2, portable otherwise.
pub fn kernels(b: Backend) -> &'static CodecKernels {
    crate::kernels::trace::record("falcon::codec::kernels", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `bmi_detected()`: LZCNT, BMI1 and BMI2 detected.
        Backend::Avx2 | Backend::Avx512 if b.is_available() && bmi_detected() => &BMI,
        _ => &PORTABLE,
    }
}

/// LZCNT, BMI1 and BMI2 (checked at run time with `std`, else at build time).
#[cfg(target_arch = "x86_64")]
pub(crate) fn bmi_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(
            target_feature = "lzcnt",
            target_feature = "bmi1",
            target_feature = "bmi2"
        ))
    }
}

/// Safe entry to the BMI build; only handed out by [`kernels`] after `bmi_detected()`.
#[cfg(target_arch = "x86_64")]
fn comp_decode_bmi(x: &mut [i16], buf: &[u8]) -> Option<usize> {
    /// # Safety
    /// The CPU must support LZCNT, BMI1 and BMI2.
    #[target_feature(enable = "lzcnt,bmi1,bmi2")]
    unsafe fn imp(x: &mut [i16], buf: &[u8]) -> Option<usize> {
        crate::falcon::codec::comp_decode_body(x, buf)
    }
    // SAFETY: reachable only through the `BMI` table, which `kernels` hands out only
    // after `bmi_detected()`.
    unsafe { imp(x, buf) }
}

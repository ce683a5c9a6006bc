//! AVX2 NTT, inverse NTT and NTT-domain products (placeholder: portable).
pub use super::super::portable::ntt::{invntt_tomont, matvec_montgomery, ntt, pointwise_montgomery};

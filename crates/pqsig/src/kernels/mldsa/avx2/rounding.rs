//! AVX2 rounding kernels (placeholder: portable).
pub use super::super::portable::rounding::{chknorm, decompose, make_hint, power2round, use_hint};

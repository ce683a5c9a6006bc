//! AVX2 rejection samplers (placeholder: portable).
pub use super::super::portable::sample::{rej_eta, rej_uniform};

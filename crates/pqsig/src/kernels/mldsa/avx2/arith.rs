//! AVX2 coefficient-wise arithmetic (placeholder: portable).
pub use super::super::portable::reduce::{caddq, reduce32};
pub use super::super::portable::{add, shiftl, sub};

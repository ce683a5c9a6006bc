//! `Fpr` as binary64 emulated with integer instructions (feature `fpr-emulated`).
//! PLACEHOLDER — being written (helper "fpr-emulated"); same API as `native.rs`.

//! Shared helpers for the vector suites: locating `../shared/vectors`, hex, JSON.
#![allow(dead_code)]

use std::path::PathBuf;

/// The vectors folder: `$PQSIG_VECTORS`, else `shared/vectors` beside the checkout
/// (CI layout) or inside it.
pub fn vectors_dir() -> PathBuf {
    if let Ok(p) = std::env::var("PQSIG_VECTORS") {
        return PathBuf::from(p);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    for cand in [root.join("../shared/vectors"), root.join("shared/vectors")] {
        if cand.is_dir() {
            return cand;
        }
    }
    panic!("test vectors not found: set PQSIG_VECTORS or place shared/ beside the checkout");
}

pub fn load_json(rel: &str) -> serde_json::Value {
    let p = vectors_dir().join(rel);
    let s = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap_or_else(|e| panic!("bad hex in vector: {e}"))
}

pub fn field_hex(v: &serde_json::Value, k: &str) -> Vec<u8> {
    unhex(v[k].as_str().unwrap_or_else(|| panic!("missing field {k}")))
}

pub fn opt_hex(v: &serde_json::Value, k: &str) -> Option<Vec<u8>> {
    v.get(k).and_then(|x| x.as_str()).map(unhex)
}

/// Backends the suites run on: all available, or only the one named by
/// `PQSIG_BACKEND` (the forced-portable CI run).
pub fn backends() -> Vec<pqsig::Backend> {
    match std::env::var("PQSIG_BACKEND").ok().and_then(|v| pqsig::Backend::from_name(&v)) {
        Some(b) => vec![b],
        None => pqsig::Backend::available().collect(),
    }
}

/// A small deterministic PRNG for random-input tests (xorshift64).
pub struct XorShift(pub u64);
impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

//! Shared helpers of the card tests: a card on a temporary socket, random inputs.
#![allow(dead_code)]

use pqsig::batch::MlDsaPoly;
use pqsig_card::{AccelKind, CardConfig, CardHandle, CycleModel};
use std::path::PathBuf;
use std::time::Duration;

pub const Q: i32 = 8_380_417;

/// A fresh socket path under the system temp directory.
pub fn socket_path(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir();
    dir.join(format!(
        "pqsig-card-{tag}-{}-{:x}.sock",
        std::process::id(),
        rand_u64()
    ))
}

/// A timed card at `clock_mhz` on a fresh socket.
pub fn start_card(tag: &str, clock_mhz: f64) -> (CardHandle, PathBuf) {
    let path = socket_path(tag);
    let cfg = CardConfig {
        accel: AccelKind::Timed,
        clock_mhz,
        model: CycleModel::default(),
        spin: Duration::from_micros(50),
        ..CardConfig::new(path.clone())
    };
    (cfg.spawn().expect("card starts"), path)
}

fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    h.finish()
}

/// xorshift64*: reproducible inputs from a seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Polynomials with |a| < q (the transforms' input bound).
    pub fn mldsa(&mut self, n: usize) -> Vec<MlDsaPoly> {
        (0..n)
            .map(|_| {
                let mut p = MlDsaPoly::default();
                for c in p.coeffs.iter_mut() {
                    *c = self.below(2 * Q as u64 - 1) as i32 - (Q - 1);
                }
                p
            })
            .collect()
    }
    /// Canonical Falcon coefficients, `n` polynomials of 2^logn.
    pub fn falcon(&mut self, n: usize, logn: u32) -> Vec<u16> {
        (0..n << logn).map(|_| self.below(12289) as u16).collect()
    }
}

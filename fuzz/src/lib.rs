//! Input splitting shared by the fuzz targets: one fuzz input is read as a sequence of
//! fields, each a byte, a fixed-size slice or a length-prefixed slice. A field that runs
//! past the end of the input comes back short (never a panic), so every input is usable.

use pqsig::Algorithm;

/// Reads fields from the front of a fuzz input.
pub struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Fields(data)
    }

    /// One byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or(0)
    }

    /// Up to `n` bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.0.split_at(n.min(self.0.len()));
        self.0 = tail;
        head
    }

    /// A slice whose length is a 16-bit little-endian prefix.
    pub fn take_len16(&mut self) -> &'a [u8] {
        let l = self.take(2);
        let n = match l {
            [a, b] => u16::from_le_bytes([*a, *b]) as usize,
            [a] => *a as usize,
            _ => 0,
        };
        self.take(n)
    }

    /// A slice whose length is a 32-bit little-endian prefix.
    pub fn take_len32(&mut self) -> &'a [u8] {
        let mut b = [0u8; 4];
        let l = self.take(4);
        b[..l.len()].copy_from_slice(l);
        self.take(u32::from_le_bytes(b) as usize)
    }

    /// Everything left.
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// The algorithm a selector byte names: every one of the 27 is reachable.
pub fn algorithm(selector: u8) -> Algorithm {
    Algorithm::ALL[selector as usize % Algorithm::ALL.len()]
}

/// The selector byte of `alg` (the inverse of [`algorithm`]; for the seed generator).
pub fn selector(alg: Algorithm) -> u8 {
    Algorithm::ALL
        .iter()
        .position(|&a| a == alg)
        .expect("listed") as u8
}

/// Keys made once per (algorithm, index) and kept for the process: the differential and
/// verification targets spend their executions on signing and verifying the fuzzer's
/// bytes instead of on key generation (a seed is hashed before any use, so fuzzing it
/// would be random testing, which the KAT and stress suites already do).
pub mod keys {
    use pqsig::any::{SigningKey, VerifyingKey};
    use pqsig::snova::{ExpandedSigningKey, PreparedVerifyingKey};
    use pqsig::Algorithm;
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};

    /// Distinct keys per algorithm (the index byte is reduced modulo this).
    pub const PER_ALGORITHM: u8 = 4;

    /// A key pair, and for SNOVA its expanded and prepared forms (SNOVA's plain keys
    /// re-expand the public matrices on every call: ~1 ms, against ~50 µs prepared).
    pub struct Keys {
        pub sk: SigningKey,
        pub vk: VerifyingKey,
        pub snova: Option<(ExpandedSigningKey, PreparedVerifyingKey)>,
    }

    /// The cached keys of `alg` number `index % PER_ALGORITHM`, made on first use from a
    /// fixed seed. Checks each key once as it is made: both encodings re-decode, and the
    /// re-decoded secret key has the same public key and signs identically
    /// (deterministic algorithms) or verifiably (hedged ones).
    pub fn get(alg: Algorithm, index: u8) -> &'static Keys {
        static CACHE: OnceLock<Mutex<HashMap<(Algorithm, u8), &'static Keys>>> = OnceLock::new();
        let index = index % PER_ALGORITHM;
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .expect("not poisoned");
        cache
            .entry((alg, index))
            .or_insert_with(|| Box::leak(Box::new(make(alg, index))))
    }

    fn make(alg: Algorithm, index: u8) -> Keys {
        let seed: Vec<u8> = (0..alg.seed_len())
            .map(|i| (i as u8) ^ index.wrapping_mul(0x3b))
            .collect();
        let sk = SigningKey::from_seed(alg, &seed).expect("a seed of the right length");
        let vk = sk.verifying_key();
        let (msg, ctx) = (b"cached key check".as_slice(), b"".as_slice());
        let sign = |k: &SigningKey| {
            if alg.supports_deterministic() {
                k.sign_deterministic(msg, ctx)
            } else {
                k.sign(msg, ctx)
            }
            .expect("signing with a good key")
        };
        let sig = sign(&sk);
        assert_eq!(
            vk.verify(msg, ctx, &sig),
            Ok(()),
            "{alg}: own signature rejected"
        );
        let vk2 = VerifyingKey::from_bytes(alg, vk.to_bytes()).expect("own public key decodes");
        assert_eq!(vk2.verify(msg, ctx, &sig), Ok(()));
        let sk2 = SigningKey::from_bytes(alg, &sk.to_bytes()).expect("own secret key decodes");
        assert_eq!(sk2.verifying_key().to_bytes(), vk.to_bytes());
        if alg.supports_deterministic() {
            assert_eq!(sign(&sk2), sig, "{alg}: re-decoded key signs differently");
        } else {
            assert_eq!(vk.verify(msg, ctx, &sign(&sk2)), Ok(()));
        }
        let snova = match (&sk, &vk) {
            (SigningKey::Snova(s), VerifyingKey::Snova(v)) => Some((s.expand(), v.prepare())),
            _ => None,
        };
        Keys { sk, vk, snova }
    }
}

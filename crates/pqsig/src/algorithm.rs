//! The algorithm registry: names as users type them, and dispatch to the schemes.

use crate::error::Error;
use crate::falcon::{FnDsaParamSet, ParamSet as FalconParamSet};
use crate::mldsa::ParamSet;

/// Every signature algorithm pqsig implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    MlDsa(ParamSet),
    /// Round-3 Falcon (NIST KAT compatible), compressed or padded signatures.
    Falcon(FalconParamSet),
    /// FN-DSA as drafted in the `fn-dsa` 0.4.0 crate (**draft, will change**).
    FnDsa(FnDsaParamSet),
}

impl Algorithm {
    /// All algorithms, in the order `pqsig list` prints them.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::MlDsa(ParamSet::MlDsa44),
        Algorithm::MlDsa(ParamSet::MlDsa65),
        Algorithm::MlDsa(ParamSet::MlDsa87),
        Algorithm::Falcon(FalconParamSet::Falcon512),
        Algorithm::Falcon(FalconParamSet::Falcon1024),
        Algorithm::Falcon(FalconParamSet::FalconPadded512),
        Algorithm::Falcon(FalconParamSet::FalconPadded1024),
        Algorithm::FnDsa(FnDsaParamSet::FnDsa512),
        Algorithm::FnDsa(FnDsaParamSet::FnDsa1024),
    ];

    /// The canonical name (`ML-DSA-65`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::MlDsa(p) => p.name(),
            Algorithm::Falcon(p) => p.name(),
            Algorithm::FnDsa(p) => p.name(),
        }
    }

    /// Parses a canonical name (case-insensitive; `_` accepted for `-`).
    pub fn from_name(name: &str) -> Result<Self, Error> {
        Self::ALL
            .iter()
            .copied()
            .find(|a| {
                let n = a.name();
                n.len() == name.len()
                    && n.bytes().zip(name.bytes()).all(|(x, y)| {
                        let y = if y == b'_' { b'-' } else { y };
                        x.eq_ignore_ascii_case(&y)
                    })
            })
            .ok_or(Error::UnknownAlgorithm)
    }

    pub fn public_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa(p) => p.public_key_len(),
            Algorithm::Falcon(p) => p.public_key_len(),
            Algorithm::FnDsa(p) => p.public_key_len(),
        }
    }
    pub fn secret_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa(p) => p.secret_key_len(),
            Algorithm::Falcon(p) => p.secret_key_len(),
            Algorithm::FnDsa(p) => p.secret_key_len(),
        }
    }
    /// Signature length (the maximum, for variable-length schemes).
    pub fn signature_len(self) -> usize {
        match self {
            Algorithm::MlDsa(p) => p.signature_len(),
            Algorithm::Falcon(p) => p.signature_len(),
            Algorithm::FnDsa(p) => p.signature_len(),
        }
    }
}

impl core::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::from_name(s)
    }
}

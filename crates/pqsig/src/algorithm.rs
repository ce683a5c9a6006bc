//! The algorithm registry: names as users type them, and dispatch to the schemes.

use crate::error::Error;
use crate::falcon::{FnDsaParamSet, ParamSet as FalconParamSet};
use crate::mldsa::ParamSet;
use crate::snova::ParamSet as SnovaParamSet;

/// Every signature algorithm pqsig implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    MlDsa(ParamSet),
    /// Round-3 Falcon (NIST KAT compatible), compressed or padded signatures.
    Falcon(FalconParamSet),
    /// FN-DSA as drafted in the `fn-dsa` 0.4.0 crate (**draft, will change**).
    FnDsa(FnDsaParamSet),
    /// SNOVA Round 3 (the nine recommended sets, SHAKE or `_AES` public-seed expansion).
    Snova(SnovaParamSet),
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
        Algorithm::Snova(SnovaParamSet::SnovaIK),
        Algorithm::Snova(SnovaParamSet::SnovaIB),
        Algorithm::Snova(SnovaParamSet::SnovaIS),
        Algorithm::Snova(SnovaParamSet::SnovaIIIK),
        Algorithm::Snova(SnovaParamSet::SnovaIIIB),
        Algorithm::Snova(SnovaParamSet::SnovaIIIS),
        Algorithm::Snova(SnovaParamSet::SnovaVK),
        Algorithm::Snova(SnovaParamSet::SnovaVB),
        Algorithm::Snova(SnovaParamSet::SnovaVS),
        Algorithm::Snova(SnovaParamSet::SnovaIKAes),
        Algorithm::Snova(SnovaParamSet::SnovaIBAes),
        Algorithm::Snova(SnovaParamSet::SnovaISAes),
        Algorithm::Snova(SnovaParamSet::SnovaIIIKAes),
        Algorithm::Snova(SnovaParamSet::SnovaIIIBAes),
        Algorithm::Snova(SnovaParamSet::SnovaIIISAes),
        Algorithm::Snova(SnovaParamSet::SnovaVKAes),
        Algorithm::Snova(SnovaParamSet::SnovaVBAes),
        Algorithm::Snova(SnovaParamSet::SnovaVSAes),
    ];

    /// The canonical name (`ML-DSA-65`, `Falcon-512`, `SNOVA_I_S`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::MlDsa(p) => p.name(),
            Algorithm::Falcon(p) => p.name(),
            Algorithm::FnDsa(p) => p.name(),
            Algorithm::Snova(p) => p.name(),
        }
    }

    /// Parses a canonical name: case-insensitive, and `-` and `_` are interchangeable
    /// (`ml_dsa_65`, `falcon_512`, `snova-i-s`, `SNOVA_I_S_AES` all parse). No two
    /// canonical names differ only in case or separator, so this stays unambiguous.
    pub fn from_name(name: &str) -> Result<Self, Error> {
        // One spelling of a byte: upper case, `_` for either separator.
        let fold = |c: u8| {
            if c == b'-' {
                b'_'
            } else {
                c.to_ascii_uppercase()
            }
        };
        Self::ALL
            .iter()
            .copied()
            .find(|a| {
                let n = a.name();
                n.len() == name.len()
                    && n.bytes().zip(name.bytes()).all(|(x, y)| fold(x) == fold(y))
            })
            .ok_or(Error::UnknownAlgorithm)
    }

    pub fn public_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa(p) => p.public_key_len(),
            Algorithm::Falcon(p) => p.public_key_len(),
            Algorithm::FnDsa(p) => p.public_key_len(),
            Algorithm::Snova(p) => p.public_key_len(),
        }
    }
    pub fn secret_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa(p) => p.secret_key_len(),
            Algorithm::Falcon(p) => p.secret_key_len(),
            Algorithm::FnDsa(p) => p.secret_key_len(),
            Algorithm::Snova(p) => p.secret_key_len(),
        }
    }
    /// Signature length (the maximum, for variable-length schemes).
    pub fn signature_len(self) -> usize {
        match self {
            Algorithm::MlDsa(p) => p.signature_len(),
            Algorithm::Falcon(p) => p.signature_len(),
            Algorithm::FnDsa(p) => p.signature_len(),
            Algorithm::Snova(p) => p.signature_len(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_every_spelling() {
        for &a in Algorithm::ALL {
            let n = a.name();
            assert_eq!(Algorithm::from_name(n), Ok(a));
            assert_eq!(Algorithm::from_name(&n.to_lowercase()), Ok(a));
            assert_eq!(Algorithm::from_name(&n.replace('-', "_")), Ok(a));
            assert_eq!(Algorithm::from_name(&n.replace('_', "-")), Ok(a));
            assert_eq!(n.parse::<Algorithm>(), Ok(a));
        }
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(names.len(), 9 + 18);
        for (i, x) in names.iter().enumerate() {
            for y in &names[i + 1..] {
                assert_ne!(
                    x.to_ascii_uppercase().replace('-', "_"),
                    y.to_ascii_uppercase().replace('-', "_")
                );
            }
        }
        assert_eq!(
            Algorithm::from_name("snova_i_s"),
            Ok(Algorithm::Snova(SnovaParamSet::SnovaIS))
        );
        assert_eq!(
            Algorithm::from_name("SNOVA-V-K-AES"),
            Ok(Algorithm::Snova(SnovaParamSet::SnovaVKAes))
        );
        assert_eq!(
            Algorithm::from_name("ml_dsa_65"),
            Ok(Algorithm::MlDsa(ParamSet::MlDsa65))
        );
        for bad in [
            "",
            "SNOVA",
            "SNOVA_I",
            "SNOVA_I_S_",
            "SNOVA_I_SAES",
            "ML-DSA-6",
            "SNOVA I S",
        ] {
            assert_eq!(
                Algorithm::from_name(bad),
                Err(Error::UnknownAlgorithm),
                "{bad}"
            );
        }
    }

    #[test]
    fn snova_entries_follow_the_param_set_order() {
        let snova: Vec<SnovaParamSet> = Algorithm::ALL
            .iter()
            .filter_map(|a| match a {
                Algorithm::Snova(p) => Some(*p),
                _ => None,
            })
            .collect();
        assert_eq!(snova, SnovaParamSet::ALL.to_vec());
        for p in SnovaParamSet::ALL {
            let a = Algorithm::Snova(p);
            assert_eq!(a.name(), p.name());
            assert_eq!(a.secret_key_len(), 96);
            assert_eq!(a.public_key_len(), p.public_key_len());
            assert_eq!(a.signature_len(), p.signature_len());
        }
    }
}

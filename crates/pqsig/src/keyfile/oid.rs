//! Object identifiers of every algorithm, and which of them are provisional.
//!
//! | Algorithm | OID | Source |
//! |---|---|---|
//! | ML-DSA-44 / 65 / 87 | 2.16.840.1.101.3.4.3.17 / .18 / .19 | NIST CSOR, RFC 9881 (final) |
//! | Falcon-512 | 1.3.9999.3.11 | Open Quantum Safe (oqs-provider), **provisional** |
//! | Falcon-1024 | 1.3.9999.3.14 | Open Quantum Safe, **provisional** |
//! | Falcon-padded-512 | 1.3.9999.3.16 | Open Quantum Safe, **provisional** |
//! | Falcon-padded-1024 | 1.3.9999.3.19 | Open Quantum Safe, **provisional** |
//! | FN-DSA-512 / 1024 | 2.25.[`PQSIG_ARC_UUID`].1.1 / .1.2 | pqsig private arc, **provisional** |
//! | SNOVA Round 3 (18 sets) | 2.25.[`PQSIG_ARC_UUID`].2.*n* (n = 1..18, [`crate::snova::ParamSet::ALL`] order) | pqsig private arc, **provisional** |
//!
//! FN-DSA (FIPS 206) has no published OID and Open Quantum Safe assigns none. Open Quantum
//! Safe's SNOVA OIDs (1.3.9999.10.*) name the *Round 2* parameter sets (SNOVA_24_5_4, ...),
//! whose keys are not those of the Round 3 sets pqsig implements, so reusing them would
//! mislabel keys. Both therefore live under a private arc of our own: a UUID-derived OID
//! (ITU-T X.667 / RFC 9562 "2.25" arc, which anyone may use without registration), so they
//! cannot collide with anyone else's. Every provisional OID will be replaced when NIST /
//! the IETF publish final ones; [`oid_is_provisional`] says which.

use crate::algorithm::Algorithm;
use crate::falcon::{FnDsaParamSet, ParamSet as FalconParamSet};
use crate::mldsa::ParamSet;
use crate::snova::ParamSet as SnovaParamSet;
use alloc::string::String;
use alloc::vec::Vec;

/// The UUID under 2.25 that roots pqsig's private arc
/// (75b2b12a-4b90-423a-842d-85977b92f2c0 as a decimal integer).
pub const PQSIG_ARC_UUID: u128 = 156447497685122802202639900091597648576;

/// The arcs of an OID.
fn arcs(alg: Algorithm) -> Vec<u128> {
    let v: &[u128] = match alg {
        Algorithm::MlDsa(ParamSet::MlDsa44) => &[2, 16, 840, 1, 101, 3, 4, 3, 17],
        Algorithm::MlDsa(ParamSet::MlDsa65) => &[2, 16, 840, 1, 101, 3, 4, 3, 18],
        Algorithm::MlDsa(ParamSet::MlDsa87) => &[2, 16, 840, 1, 101, 3, 4, 3, 19],
        Algorithm::Falcon(FalconParamSet::Falcon512) => &[1, 3, 9999, 3, 11],
        Algorithm::Falcon(FalconParamSet::Falcon1024) => &[1, 3, 9999, 3, 14],
        Algorithm::Falcon(FalconParamSet::FalconPadded512) => &[1, 3, 9999, 3, 16],
        Algorithm::Falcon(FalconParamSet::FalconPadded1024) => &[1, 3, 9999, 3, 19],
        Algorithm::FnDsa(FnDsaParamSet::FnDsa512) => &[2, 25, PQSIG_ARC_UUID, 1, 1],
        Algorithm::FnDsa(FnDsaParamSet::FnDsa1024) => &[2, 25, PQSIG_ARC_UUID, 1, 2],
        Algorithm::Snova(p) => {
            let n = SnovaParamSet::ALL.iter().position(|&q| q == p).unwrap_or(0) as u128 + 1;
            return alloc::vec![2, 25, PQSIG_ARC_UUID, 2, n];
        }
    };
    v.to_vec()
}

/// The OID of `alg` in dotted form (`2.16.840.1.101.3.4.3.18`).
pub fn oid_string(alg: Algorithm) -> String {
    let mut s = String::new();
    for (i, a) in arcs(alg).iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(&alloc::format!("{a}"));
    }
    s
}

/// The content octets of the DER OBJECT IDENTIFIER of `alg` (without tag and length).
pub fn oid_der(alg: Algorithm) -> Vec<u8> {
    let a = arcs(alg);
    let mut out = Vec::new();
    let mut push = |mut v: u128| {
        let mut tmp = [0u8; 19];
        let mut n = 0;
        loop {
            tmp[n] = (v & 0x7f) as u8;
            n += 1;
            v >>= 7;
            if v == 0 {
                break;
            }
        }
        for i in (0..n).rev() {
            out.push(tmp[i] | if i > 0 { 0x80 } else { 0 });
        }
    };
    push(a[0] * 40 + a[1]);
    for &x in &a[2..] {
        push(x);
    }
    out
}

/// The algorithm an OID (DER content octets) names, if pqsig knows it.
pub fn algorithm_from_oid_der(oid: &[u8]) -> Option<Algorithm> {
    Algorithm::ALL.iter().copied().find(|&a| oid_der(a) == oid)
}

/// Whether the OID pqsig uses for `alg` is provisional (experimental or private, will change
/// when a final OID is published): true for Falcon, FN-DSA and SNOVA, false for ML-DSA.
pub fn oid_is_provisional(alg: Algorithm) -> bool {
    !matches!(alg, Algorithm::MlDsa(_))
}

/// A dotted OID from DER content octets, for error messages (`None` if malformed).
pub fn oid_der_to_string(oid: &[u8]) -> Option<String> {
    let mut arcs: Vec<u128> = Vec::new();
    let mut cur: u128 = 0;
    let mut started = false;
    for &b in oid {
        if !started && b == 0x80 {
            return None; // non-minimal
        }
        started = b & 0x80 != 0;
        if cur > (u128::MAX >> 7) {
            return None;
        }
        cur = (cur << 7) | (b & 0x7f) as u128;
        if b & 0x80 == 0 {
            arcs.push(cur);
            cur = 0;
        }
    }
    if started || arcs.is_empty() {
        return None;
    }
    let first = arcs[0];
    let (x, y) = if first < 40 {
        (0, first)
    } else if first < 80 {
        (1, first - 40)
    } else {
        (2, first - 80)
    };
    let mut s = alloc::format!("{x}.{y}");
    for a in &arcs[1..] {
        s.push_str(&alloc::format!(".{a}"));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ml_dsa_oid_bytes_are_the_published_ones() {
        assert_eq!(
            oid_der(Algorithm::MlDsa(ParamSet::MlDsa65)),
            [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12]
        );
        assert_eq!(
            oid_der(Algorithm::Falcon(FalconParamSet::Falcon512)),
            [0x2b, 0xce, 0x0f, 0x03, 0x0b]
        );
    }

    #[test]
    fn every_oid_is_unique_and_round_trips() {
        for (i, &a) in Algorithm::ALL.iter().enumerate() {
            assert_eq!(algorithm_from_oid_der(&oid_der(a)), Some(a));
            assert_eq!(
                oid_der_to_string(&oid_der(a)).as_deref(),
                Some(oid_string(a).as_str())
            );
            for &b in &Algorithm::ALL[i + 1..] {
                assert_ne!(oid_der(a), oid_der(b));
            }
        }
        assert_eq!(
            oid_string(Algorithm::MlDsa(ParamSet::MlDsa87)),
            "2.16.840.1.101.3.4.3.19"
        );
    }
}

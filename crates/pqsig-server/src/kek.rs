//! The key-encryption key: AES-256-GCM sealing of the private-key seeds at rest, with the
//! key id and algorithm name as associated data (a sealed seed moved to another row or
//! relabelled with another algorithm fails to open).

use crate::config::KekSource;
use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

const NONCE_LEN: usize = 12;
/// Domain separation of the associated data (bumped if the layout ever changes).
const AAD_PREFIX: &[u8] = b"pqsig-server/seed/v1\0";

/// Derivation label of the row-authentication key (`Kek::row_mac`).
const ROW_MAC_LABEL: &[u8] = b"pqsig-server/row-mac/v1";

/// A loaded key-encryption key.
pub struct Kek {
    cipher: Aes256Gcm,
    /// HMAC-SHA256 key authenticating key-store rows, derived from the KEK.
    row_mac_key: Zeroizing<[u8; 32]>,
    /// Whether this is the public development key (logged, and reported by /healthz).
    pub insecure: bool,
}

impl core::fmt::Debug for Kek {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Kek(insecure: {})", self.insecure)
    }
}

/// Parses 32 key bytes given as 64 hex digits or base64 (either alphabet).
fn parse_key_text(text: &str) -> Option<Zeroizing<Vec<u8>>> {
    let t = text.trim();
    let bytes = if t.len() == 64 {
        hex::decode(t).ok()
    } else {
        base64_simd::forgiving_decode_to_vec(t.as_bytes())
            .or_else(|_| base64_simd::URL_SAFE.decode_to_vec(t))
            .ok()
    };
    let bytes = Zeroizing::new(bytes?);
    (bytes.len() == 32).then_some(bytes)
}

/// HMAC-SHA256 (RFC 2104) of the concatenation of `parts`; `key` at most 64 bytes.
fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut block = Zeroizing::new([0u8; 64]);
    block[..key.len()].copy_from_slice(key);
    let mut pad = Zeroizing::new([0u8; 64]);
    for (p, b) in pad.iter_mut().zip(block.iter()) {
        *p = b ^ 0x36;
    }
    let mut inner = Sha256::new();
    inner.update(pad.as_slice());
    for p in parts {
        inner.update(p);
    }
    for (p, b) in pad.iter_mut().zip(block.iter()) {
        *p = b ^ 0x5c;
    }
    let mut outer = Sha256::new();
    outer.update(pad.as_slice());
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// Refuses a key file others can read (the KEK unlocks every stored key), unless the
/// operator overrode the check; a group-readable file is only warned about.
fn check_file_mode(path: &std::path::Path, allow_loose_mode: bool) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .map_err(|e| format!("cannot read key-encryption key {}: {e}", path.display()))?
        .permissions()
        .mode();
    if mode & 0o004 != 0 {
        if !allow_loose_mode {
            return Err(format!(
                "key-encryption key file {} is world-readable (mode {:o}): chmod 600 it \
                 (or pass --allow-world-readable-kek to start anyway)",
                path.display(),
                mode & 0o777
            ));
        }
        crate::log!(
            "WARNING: key-encryption key file {} is world-readable (mode {:o}); \
             anyone on this machine can decrypt every stored private key",
            path.display(),
            mode & 0o777
        );
    } else if mode & 0o040 != 0 {
        crate::log!(
            "WARNING: key-encryption key file {} is group-readable (mode {:o})",
            path.display(),
            mode & 0o777
        );
    }
    Ok(())
}

impl Kek {
    /// Loads the key from its source; the error is one line for the operator.
    pub fn load(source: &KekSource, allow_loose_mode: bool) -> Result<Self, String> {
        let key: Zeroizing<Vec<u8>> = match source {
            KekSource::File(path) => {
                check_file_mode(path, allow_loose_mode)?;
                let raw = Zeroizing::new(std::fs::read(path).map_err(|e| {
                    format!("cannot read key-encryption key {}: {e}", path.display())
                })?);
                if raw.len() == 32 {
                    Zeroizing::new(raw.to_vec())
                } else {
                    let text = std::str::from_utf8(&raw).unwrap_or("");
                    parse_key_text(text).ok_or_else(|| {
                        format!(
                            "key-encryption key file {} must hold 32 bytes (raw, 64 hex digits or base64)",
                            path.display()
                        )
                    })?
                }
            }
            KekSource::Value(v) => {
                parse_key_text(v).ok_or("PQSIG_KEK must be 32 bytes as 64 hex digits or base64")?
            }
            KekSource::InsecureDev => {
                Zeroizing::new(Sha256::digest(b"pqsig-server insecure development key").to_vec())
            }
        };
        let cipher =
            Aes256Gcm::new_from_slice(&key).map_err(|_| "key-encryption key must be 32 bytes")?;
        Ok(Kek {
            cipher,
            row_mac_key: Zeroizing::new(hmac_sha256(&key, &[ROW_MAC_LABEL])),
            insecure: matches!(source, KekSource::InsecureDev),
        })
    }

    /// HMAC-SHA256 over length-prefixed `fields` under the row-authentication key.
    pub fn row_mac(&self, fields: &[&[u8]]) -> [u8; 32] {
        let mut framed = Vec::new();
        for f in fields {
            framed.extend_from_slice(&(f.len() as u64).to_be_bytes());
            framed.extend_from_slice(f);
        }
        hmac_sha256(self.row_mac_key.as_slice(), &[&framed])
    }

    fn aad(key_id: &str, alg: &str) -> Vec<u8> {
        let mut aad = AAD_PREFIX.to_vec();
        aad.extend_from_slice(key_id.as_bytes());
        aad.push(0);
        aad.extend_from_slice(alg.as_bytes());
        aad
    }

    /// Encrypts a seed: random 96-bit nonce followed by ciphertext and tag.
    pub fn seal(&self, key_id: &str, alg: &str, plaintext: &[u8]) -> Result<Vec<u8>, String> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::getrandom(&mut nonce).map_err(|e| format!("OS randomness failed: {e}"))?;
        let aad = Self::aad(key_id, alg);
        let ct = self
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: plaintext,
                    aad: &aad,
                },
            )
            .map_err(|_| "AES-GCM encryption failed".to_string())?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&ct);
        Ok(out)
    }

    /// Decrypts and authenticates a sealed seed; `None` when the key, id, algorithm or
    /// bytes do not match.
    pub fn open(&self, key_id: &str, alg: &str, sealed: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
        if sealed.len() < NONCE_LEN {
            return None;
        }
        let (nonce, ct) = sealed.split_at(NONCE_LEN);
        let aad = Self::aad(key_id, alg);
        self.cipher
            .decrypt(Nonce::from_slice(nonce), Payload { msg: ct, aad: &aad })
            .ok()
            .map(Zeroizing::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kek(byte: u8) -> Kek {
        Kek::load(
            &KekSource::Value(Zeroizing::new(hex::encode([byte; 32]))),
            false,
        )
        .unwrap()
    }

    #[test]
    fn hmac_matches_rfc4231_and_row_tags_depend_on_kek_and_fields() {
        // RFC 4231, test case 2 (split across parts to exercise the concatenation).
        let tag = hmac_sha256(b"Jefe", &[b"what do ya want ", b"for nothing?"]);
        assert_eq!(
            hex::encode(tag),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        let (a, b) = (kek(1), kek(2));
        assert_eq!(a.row_mac(&[b"x", b"y"]), a.row_mac(&[b"x", b"y"]));
        assert_ne!(a.row_mac(&[b"x", b"y"]), b.row_mac(&[b"x", b"y"]));
        // Length framing: moving a byte between fields changes the tag.
        assert_ne!(a.row_mac(&[b"xy", b""]), a.row_mac(&[b"x", b"y"]));
    }

    #[test]
    fn sealed_seeds_are_bound_to_key_id_algorithm_and_kek() {
        let k = kek(1);
        let sealed = k.seal("id1", "ML-DSA-65", b"seed bytes").unwrap();
        assert_ne!(&sealed[12..22], b"seed bytes", "ciphertext, not plaintext");
        assert_eq!(
            k.open("id1", "ML-DSA-65", &sealed).unwrap().as_slice(),
            b"seed bytes"
        );
        assert!(
            k.open("id2", "ML-DSA-65", &sealed).is_none(),
            "moved to another id"
        );
        assert!(
            k.open("id1", "ML-DSA-87", &sealed).is_none(),
            "relabelled algorithm"
        );
        assert!(
            kek(2).open("id1", "ML-DSA-65", &sealed).is_none(),
            "another KEK"
        );
        let mut flipped = sealed.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(k.open("id1", "ML-DSA-65", &flipped).is_none(), "tampered");
        assert!(
            k.open("id1", "ML-DSA-65", &sealed[..5]).is_none(),
            "truncated"
        );
        // Fresh nonce per seal.
        assert_ne!(sealed, k.seal("id1", "ML-DSA-65", b"seed bytes").unwrap());
    }

    #[test]
    fn key_text_forms() {
        assert!(parse_key_text(&"ab".repeat(32)).is_some());
        assert!(parse_key_text(&format!("  {}\n", "AB".repeat(32))).is_some());
        assert!(parse_key_text("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=").is_some());
        assert!(parse_key_text("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8").is_some());
        assert!(parse_key_text("short").is_none());
        assert!(parse_key_text(&"zz".repeat(32)).is_none());
        assert!(parse_key_text(&"ab".repeat(31)).is_none());
    }
}

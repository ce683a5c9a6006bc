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

/// A loaded key-encryption key.
pub struct Kek {
    cipher: Aes256Gcm,
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

impl Kek {
    /// Loads the key from its source; the error is one line for the operator.
    pub fn load(source: &KekSource) -> Result<Self, String> {
        let key: Zeroizing<Vec<u8>> = match source {
            KekSource::File(path) => {
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
            insecure: matches!(source, KekSource::InsecureDev),
        })
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
        Kek::load(&KekSource::Value(Zeroizing::new(hex::encode([byte; 32])))).unwrap()
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

//! Round-3 Falcon as a public API: parameter sets, key types, sign and verify.
//!
//! The four parameter sets are two degrees × two signature encodings:
//!
//! | name                 | logn | public key | secret key | signature                  |
//! |----------------------|------|-----------:|-----------:|----------------------------|
//! | `Falcon-512`         | 9    | 897        | 1281       | ≤ 752, `0x39‖nonce‖comp(s2)` |
//! | `Falcon-1024`        | 10   | 1793       | 2305       | ≤ 1462, `0x3A‖nonce‖comp(s2)` |
//! | `Falcon-padded-512`  | 9    | 897        | 1281       | = 666, zero-padded          |
//! | `Falcon-padded-1024` | 10   | 1793       | 2305       | = 1280, zero-padded         |
//!
//! Keys are the round-3 encodings (`0x00+logn ‖ h`, `0x50+logn ‖ f ‖ g ‖ F`); the padded
//! and unpadded sets share keys. Round-3 Falcon has neither a context string nor a
//! deterministic mode: both are refused with [`Error::Unsupported`].

use super::params;
use crate::error::Error;

/// A round-3 Falcon parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamSet {
    Falcon512,
    Falcon1024,
    FalconPadded512,
    FalconPadded1024,
}

impl ParamSet {
    pub const ALL: [ParamSet; 4] = [
        ParamSet::Falcon512,
        ParamSet::Falcon1024,
        ParamSet::FalconPadded512,
        ParamSet::FalconPadded1024,
    ];

    /// The canonical name (`Falcon-512`, `Falcon-padded-1024`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ParamSet::Falcon512 => "Falcon-512",
            ParamSet::Falcon1024 => "Falcon-1024",
            ParamSet::FalconPadded512 => "Falcon-padded-512",
            ParamSet::FalconPadded1024 => "Falcon-padded-1024",
        }
    }

    /// log2 of the degree (9 or 10).
    pub const fn logn(self) -> u32 {
        match self {
            ParamSet::Falcon512 | ParamSet::FalconPadded512 => 9,
            ParamSet::Falcon1024 | ParamSet::FalconPadded1024 => 10,
        }
    }

    /// Whether signatures use the fixed-length padded encoding.
    pub const fn padded(self) -> bool {
        matches!(self, ParamSet::FalconPadded512 | ParamSet::FalconPadded1024)
    }

    pub const fn public_key_len(self) -> usize {
        params::pk_size(self.logn())
    }

    pub const fn secret_key_len(self) -> usize {
        params::sk_size(self.logn())
    }

    /// The signature length: exact for the padded sets, the maximum otherwise.
    pub const fn signature_len(self) -> usize {
        if self.padded() {
            params::sig_padded_size(self.logn())
        } else {
            params::sig_compressed_max_size(self.logn())
        }
    }
}

/// Refuses what round-3 Falcon does not define: a non-empty context string.
pub(crate) fn no_context(ctx: &[u8]) -> Result<(), Error> {
    if ctx.is_empty() {
        Ok(())
    } else {
        Err(Error::Unsupported)
    }
}

/// An FN-DSA parameter set (**draft**: the putative FIPS 206 of the `fn-dsa` 0.4.0 crate;
/// encodings will change when NIST publishes the standard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FnDsaParamSet {
    FnDsa512,
    FnDsa1024,
}

impl FnDsaParamSet {
    pub const ALL: [FnDsaParamSet; 2] = [FnDsaParamSet::FnDsa512, FnDsaParamSet::FnDsa1024];

    pub const fn name(self) -> &'static str {
        match self {
            FnDsaParamSet::FnDsa512 => "FN-DSA-512",
            FnDsaParamSet::FnDsa1024 => "FN-DSA-1024",
        }
    }

    pub const fn logn(self) -> u32 {
        match self {
            FnDsaParamSet::FnDsa512 => 9,
            FnDsaParamSet::FnDsa1024 => 10,
        }
    }

    /// Verifying key: the round-3 public key encoding.
    pub const fn public_key_len(self) -> usize {
        params::pk_size(self.logn())
    }

    /// Signing key: the round-3 compact key followed by the 64-byte hash of the verifying
    /// key (1345 / 2369 bytes).
    pub const fn secret_key_len(self) -> usize {
        params::sk_size(self.logn()) + 64
    }

    /// Signatures have a fixed length (666 / 1280 bytes).
    pub const fn signature_len(self) -> usize {
        params::sig_padded_size(self.logn())
    }
}

//! Randomness: the OS generator (feature `std`) and, with feature `kat`, the NIST
//! AES-256-CTR DRBG of PQCgenKAT_sign for regenerating KAT files.

#[cfg(feature = "kat")]
pub mod drbg;

#[cfg(feature = "std")]
use crate::error::Error;

/// Fills `out` from the operating system's CSPRNG.
#[cfg(feature = "std")]
pub fn os_fill(out: &mut [u8]) -> Result<(), Error> {
    getrandom::getrandom(out).map_err(|_| Error::RandomnessFailure)
}

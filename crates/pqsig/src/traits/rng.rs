//! A rand_core 0.10 RNG (what `signature` 3 hands over) seen as a rand_core 0.6 one (what
//! the schemes' `*_with_rng` take), so `RandomizedSigner` runs the inherent code path and
//! draws exactly the same bytes in the same calls.

use crate::error::Error;
use core::num::NonZeroU32;
use rand_core_0_10::TryCryptoRng;

/// rand_core 0.6 needs a non-zero code; any custom one will do (the scheme maps every RNG
/// failure to [`Error::RandomnessFailure`]).
const CODE: NonZeroU32 = match NonZeroU32::new(rand_core::Error::CUSTOM_START) {
    Some(c) => c,
    None => NonZeroU32::MIN,
};

pub(crate) struct Compat<'a, R: TryCryptoRng + ?Sized> {
    rng: &'a mut R,
    failed: bool,
}

impl<'a, R: TryCryptoRng + ?Sized> Compat<'a, R> {
    pub(crate) fn new(rng: &'a mut R) -> Self {
        Compat { rng, failed: false }
    }

    /// Runs `f` with the adapted RNG. A failure seen through an infallible call
    /// (`fill_bytes`, `next_u32`, which cannot report it) discards the result, so output
    /// made from the zeros written in its place never leaves this function.
    pub(crate) fn run<T>(
        rng: &'a mut R,
        f: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut c = Self::new(rng);
        let out = f(&mut c);
        if c.failed {
            return Err(Error::RandomnessFailure);
        }
        out
    }
}

impl<R: TryCryptoRng + ?Sized> rand_core::RngCore for Compat<'_, R> {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }

    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        if self.try_fill_bytes(dest).is_err() {
            dest.fill(0);
            self.failed = true;
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.rng
            .try_fill_bytes(dest)
            .map_err(|_| rand_core::Error::from(CODE))
    }
}

impl<R: TryCryptoRng + ?Sized> rand_core::CryptoRng for Compat<'_, R> {}

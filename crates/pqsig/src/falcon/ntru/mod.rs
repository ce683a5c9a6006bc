//! The exact arithmetic of NTRUSolve, one copy for both Falcons: the round-3 solver
//! (`falcon::keygen::solve`) and FN-DSA's (`falcon::fndsa::ntru`). Exact integer
//! arithmetic cannot change which (f, g) a solver rejects, so only the solvers and
//! their big-polynomial steps (`keygen::poly`, `fndsa::ntru::poly`) are per draft.
//!
//! * [`primes`] — the RNS moduli (320 primes below 2^31, p = 1 mod 2048);
//! * [`modp`] — arithmetic modulo one of them and its NTT over Z_p[X]/(X^n + 1);
//! * [`zint`] — big integers in base 2^31 and in RNS: residues, CRT rebuild, Bezout.
//!
//! The backends' versions of the hot loops (the NTT, the CRT, residues) are the
//! `kernels::falcon::ntru::NtruKernels` tables; they give the same canonical values.

pub(crate) mod modp;
pub(crate) mod primes;
pub(crate) mod zint;

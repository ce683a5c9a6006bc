//! NTRUSolve of FN-DSA (draft, fn-dsa 0.4.0): the ntrugen algorithm, ported so that the
//! same (f, g) are accepted and the same (F, G) come out. DRAFT.
//!
//! Why not the shared round-3 solver ([`mod@crate::falcon::keygen`])? Both compute a valid
//! solution, and when both succeed they almost always agree (both end with an exact
//! size reduction at depth 0). But they do not fail on the same (f, g): on the 90 KAT
//! vectors, the round-3 solver accepted candidates that fn-dsa's solver rejects (and the
//! reverse at small degrees), so 26 of the 90 key pairs came out different. Key
//! generation rejects and redraws, so only an identical solver reproduces the keys.
//!
//! The arithmetic modulo the RNS primes, the NTT, big integers, the CRT and the Bezout
//! coefficients are the shared ones ([`crate::falcon::ntru`]); here:
//!
//! * [`ctx`] — the twiddle tables of the solver's primes and the backend's kernels;
//! * [`poly`] — big-coefficient polynomials: fixed-point approximation, scaled
//!   subtraction of k·f (schoolbook, NTT, depth-1 specialisation);
//! * [`big`] — plain big-integer products for the deep levels (degree <= 8);
//! * [`solve`] — the recursion.

mod big;
mod ctx;
mod poly;
mod solve;

pub(crate) use ctx::NttCtx;
pub(crate) use solve::{ntt_ctx, solve_ntru};

//! FN-DSA — **DRAFT**. The putative FIPS 206 scheme as implemented by the `fn-dsa` 0.4.0
//! crate (pornin/rust-fn-dsa commit `dc1832bc`, "Updated to putative FN-DSA draft").
//!
//! # ⚠ This is a draft that will change
//!
//! FIPS 206 was not published when this code was written. Everything here reproduces what
//! the `fn-dsa` 0.4.0 crate does (and what `fndsa-0.4.0-kat.jsonl` captures), not a
//! standard. Key encodings, the message representative, domain separation, the pre-hash
//! identifiers and the signing PRNG are all expected to change with the published draft
//! and again with the final standard; keys and signatures made here will then stop
//! interoperating. The algorithm names `FN-DSA-512` / `FN-DSA-1024` refer to *this* draft.
//!
//! # How FN-DSA (fn-dsa 0.4.0) differs from round-3 Falcon
//!
//! The lattice, q = 12289, the Gaussian widths (apart from one ulp, below), the squared
//! norm bounds β² per degree and the ffSampling recursion are those of round 3. Nearly
//! every byte-level and PRNG-level detail is new, so none of the round-3 encoders, hash
//! or sampler stream can be reused as is. Degrees: logn = 2..=10 (2..=8 are toy degrees
//! for tests; 9 and 10 are FN-DSA-512 / FN-DSA-1024).
//!
//! ## Encodings (all bit packing is little-endian: LSB first, in bytes and in the stream)
//!
//! * **Verifying key** (`1 + 7·n/4` bytes; 897 at logn 9, 1793 at 10):
//!   `0x00 + logn`, then **NTT(h)** — the public polynomial in the NTT domain, not its
//!   coefficients — on 14 bits per value, four values per 7 bytes,
//!   `x0 | x1 << 14 | x2 << 28 | x3 << 42` written as 7 little-endian bytes. The NTT is
//!   the round-3 one (root 7, `7^brv10(m+i)` twiddles, bit-reversed output order), so
//!   `NTT(h)` is what the shared NTT kernel returns. Round 3 stores the coefficients of h,
//!   packed MSB first: the sizes agree, the bytes do not. Decoding is strict: exact
//!   length, header, every value `< q`; verification multiplies in the NTT domain
//!   directly.
//! * **Signing key** (`1 + 2·w·n/8 + n + 64` bytes; 1345 at logn 9, 2369 at 10):
//!   `0x50 + logn` ‖ f ‖ g (w bits each, two's complement) ‖ F (8 bits each) ‖
//!   `SHAKE256(vk)` (64 bytes, the hashed verifying key). w = 8 for logn 2..=5, 7 for
//!   6..=7, 6 for 8..=9, 5 for 10 (the round-3 widths), packed LSB first. The value
//!   `-2^(w-1)` is rejected on decoding. G is not stored: the decoder recomputes
//!   `G = g·F/f mod q` and rejects the key if f is not invertible mod (q, X^n+1) or G
//!   leaves `[-127, 127]`; it also recomputes NTT(h) = NTT(g)/NTT(f) (so the verifying
//!   key follows from the signing key). The trailing hash is *not* checked against h by
//!   fn-dsa (the draft does not require it); we do not check it either, and use it as
//!   stored.
//!   Round 3: `0x50 + logn ‖ f ‖ g ‖ F`, MSB-first packing, no hash (1281 bytes).
//! * **Signature** (fixed length, the round-3 "padded" sizes: 47, 52, 63, 82, 122, 200,
//!   356, 666, 1280 bytes for logn 2..=10): `0x30 + logn` ‖ nonce (40) ‖ comp(s2) ‖ zero
//!   padding. comp, per coefficient x (|x| ≤ 840): the sign bit, then the 7 low bits of
//!   |x| (bit 0 first), then `|x| >> 7` zero bits and a one bit; the stream is cut into
//!   bytes LSB first. Round 3 writes sign, low bits MSB first, then the unary part, into
//!   a big-endian bit stream, and allows |x| ≤ 2047. Decoding is strict: |x| ≤ 840 for
//!   every coefficient, no "-0", unused bits of the last byte and every padding byte
//!   zero, exact total length, header `0x30 + logn` exactly.
//!
//! ## Message representative μ (64 bytes) and hash-to-point
//!
//! * `hvk = SHAKE256(vk)` (64 bytes; the signer reads it from its key, the verifier
//!   hashes the encoded key).
//! * Pure mode: `μ = SHAKE256(hvk ‖ 0x00 ‖ len(ctx) ‖ ctx ‖ msg)`, `len(ctx)` one byte,
//!   ctx ≤ 255 bytes.
//! * Pre-hash mode ("HashFN-DSA", HashML-DSA style): `μ = SHAKE256(hvk ‖ 0x01 ‖ len(ctx) ‖
//!   ctx ‖ OID ‖ PH(msg))`, OID the DER encoding `06 09 60 86 48 01 65 03 04 02 xx` of
//!   the NIST hash (SHA-256 … SHAKE256, the same list and arcs as HashML-DSA).
//! * External μ: μ (64 bytes) is given directly; the context is ignored.
//! * Hash-to-point: `c = SHAKE256(nonce ‖ μ)` read as **little-endian** 16-bit words,
//!   values ≥ 61445 rejected, the rest reduced mod q. Round 3 hashes `nonce ‖ msg`
//!   directly (no μ, no key binding, no context) and reads big-endian words.
//!
//! ## Key generation from a 32-byte seed
//!
//! * The whole generation reads one SHAKE256 stream: `SHAKE256(seed)` (no domain byte).
//!   Round 3 also uses a SHAKE256 stream, but samples differently (below).
//! * Coefficient sampler (per coefficient of f, then of g): a 16-bit little-endian word
//!   u; bit 0 is the sign, `v = u >> 1` (15 bits); the magnitude is the number of table
//!   entries strictly above v (a half-Gaussian CDT). logn 10 uses a 12-entry table, one
//!   word per coefficient; logn ≤ 9 uses a 17-entry table and sums `2^(9-logn)` such
//!   signed samples per coefficient. A sum outside `[-127, 127]` is redrawn (that
//!   coefficient only); the last coefficient is redrawn until the sum of all
//!   coefficients is odd. Round 3 draws two 64-bit words per sample against a 63-bit
//!   table for degree 1024 and sums 2^(10-logn) samples per coefficient.
//! * Loop: draw f; if f is not invertible mod (q, X^n+1) draw a new f (g not drawn yet);
//!   draw g; reject (back to a new f) if ‖(g, −f)‖² ≥ 16823; reject if the squared norm
//!   of the second Gram–Schmidt vector `q·(adj f, adj g)/(f·adj f + g·adj g)`, computed
//!   in **32.32 fixed point** (not binary64), is ≥ `(0.999·1.17)²·q` (72107278641426 /
//!   2^32 ≈ 16788.8; round 3: binary64 and 16822.4121); reject if NTRUSolve fails. There
//!   is no separate "max bits" test on f, g (round 3 has one; with these tables it can
//!   only matter at the toy degrees 6..=8, where fn-dsa would silently truncate a
//!   coefficient on encoding — see `keygen` for how we handle that).
//! * NTRUSolve is the ntrugen one (fixed-point Babai steps with approximate
//!   `k = round(F/f)` at the intermediate levels, RNS + NTT mod 31-bit primes). Round 3
//!   uses binary64 Babai steps with the full formula. Both finish at depth 0 with one
//!   size-reduction `k = round((F·adj f + G·adj g)/(f·adj f + g·adj g))` whose numerator
//!   and denominator are exact integers, and every solution of `fG − gF = q` differs from
//!   another by a multiple of (f, g): whenever both roundings agree with the exact
//!   rational rounding, the two solvers return the **same** (F, G) whatever their
//!   intermediate values. They can differ only (a) when the fixed-point (ntrugen, about
//!   2^-20 absolute error on k) or binary64 rounding lands on the other side of a
//!   half-integer, or (b) when one solver rejects (f, g) and the other does not (gcd of
//!   the resultants, a reduction that did not shrink F enough, f not invertible mod
//!   the 31-bit prime). (b) is common: with the shared round-3 solver, 26 of the 90 KAT
//!   key pairs came out different (a candidate fn-dsa rejects was accepted, or the
//!   reverse at logn 2..3, where round 3 fails often). So `ntru` ports fn-dsa's
//!   solver, and all 90 key pairs match.
//! * Outputs: NTT(h), h = g/f mod q; the signing key stores f, g, F (G is recomputed).
//!
//! ## Signing from a 40-byte random seed
//!
//! * Hedging: `seed' = SHAKE256(hsk ‖ μ ‖ seed)[0..40]`, where `hsk =
//!   SHAKE256(encoded f ‖ encoded g)[0..40]` (the bytes of the signing key between the
//!   header and F).
//! * Attempt `k = 0, 1, …, 26`: a fresh SHAKE256 stream over `seed' ‖ k` (41 bytes). Its
//!   first 40 bytes are the nonce of this attempt (so the nonce changes on every
//!   restart; round 3 keeps one nonce drawn from the caller's RNG), then everything the
//!   sampler needs is read sequentially from the same stream. Round 3 keys a ChaCha20
//!   PRNG with 56 bytes of a SHAKE256 stream per attempt.
//! * Target: `t0 = FFT(c)·FFT(−F)/q`, `t1 = −FFT(c)·FFT(−f)/q` — the round-3 formulas,
//!   same operation order, same 1/q constant.
//! * ffSampling: the round-3 recursion (right sub-tree on t1 first, then
//!   `t0 + (t1 − z1)·l10` on the left sub-tree; leaves sample re then im), same
//!   FFT/split/merge/multiply operations, but the LDL step computes `μ = g01 · (1/g00)`
//!   with a real reciprocal (round 3: complex inverse `g00·(1/g00²)` then a complex
//!   product), which rounds differently; the degree-2 level is unrolled with the same
//!   formulas. The leaf width is `sqrt(d)·(1/σ)` with **1/σ one ulp lower** than round 3
//!   for every logn (fn-dsa recomputed the constants at full precision; σ_min, 1/(2σ0²),
//!   ln 2 and 1/ln 2 are bit-identical).
//! * SamplerZ: same structure (bimodal base sample, rejection with `BerExp(x, σ_min/σ)`,
//!   same `expm_p63` polynomial, same lazy byte-wise comparison MSB first, same
//!   saturation at s = 63). The base sampler differs: it reads a little-endian u64 then a
//!   little-endian u16 (80 bits): bit 0 of the u64 is the bimodal bit b, the other 79
//!   bits are compared with an 18-entry cumulative table at 79-bit precision (31+24+24
//!   bits per entry). Round 3 reads u64 + u8 (72 bits) against a 72-bit table and then
//!   one more byte for b.
//! * Acceptance: `‖s1‖² + ‖s2‖² ≤ β²` (round-3 bound values), plus `|s1_i| ≤ 840` and
//!   `|s2_i| ≤ 840`, and comp(s2) must fit the fixed signature length; any failure moves
//!   to the next attempt (new nonce). After 27 failed attempts the key is declared
//!   invalid.
//!
//! ## Verification
//!
//! Strict decoding as above; `c` from `(nonce, μ)`; `s1 = c − s2·h mod q` (centred);
//! accept iff `|s1_i| ≤ 840` for all i, `s2 ≠ 0` and `‖s1‖² + ‖s2‖² ≤ β²` (fn-dsa's
//! overflow guard `‖s1‖² < 2^32 − ‖s2‖²` is false for s2 = 0; no such signature could
//! pass the bound anyway). Round 3 has no L∞ bound on s1 (its decoder allows
//! |s2_i| ≤ 2047) and no s2 ≠ 0 condition.
//!
//! ## Status against fn-dsa 0.4.0
//!
//! Byte-exact on all 90 KAT vectors (logn 2..=10) for key generation (sk, vk), signing
//! (from `seed_sign`, pure and pre-hash) and μ; all 90 signatures verify; and
//! `tests/fndsa_differential.rs` checks random keys, messages, contexts and every
//! pre-hash against the crate itself (same bytes both ways, cross-verification,
//! tampering), on every backend and with the emulated `Fpr`; `tests/fndsa_stress.rs`
//! compares keys and signatures with fn-dsa on many more random seeds
//! (`FNDSA_STRESS=k` scales it).
//!
//! ## How it is fast (same outputs as fn-dsa, other computations)
//!
//! Only the outputs and the accept/reject decisions must match fn-dsa; wherever a value
//! is an exact integer (or an exact function of the stream), any exact method may
//! compute it. `examples/fndsa_vs_peer.rs` times every operation against the fn-dsa
//! crate in the same process.
//!
//! * Signing: the sampler evaluates up to 8 speculative 11-byte attempts of both
//!   requests of a leaf at once with AVX2 and replays the serial order on masks
//!   (`kernels::falcon::fndsa::sampler_avx2`: same integers, same bytes consumed); the SHAKE256 stream keeps a
//!   look-ahead window (`prng`); the FFT-domain operations use the backend's kernel
//!   table, fetched once per signature. Hash-to-point reduces and left-packs 16 words
//!   at a time.
//! * Verification: no allocation; table-driven decoding of the compressed s2 (one
//!   trailing-zero count per value on the critical path); AVX2 unpacking of the
//!   verifying key. A signing key decoded to sign builds its verifying key only on
//!   request.
//! * Key generation (`ntru`): twiddle tables computed once per key generation;
//!   AVX2 NTTs, CRT reconstruction and residues over the 31-bit primes; at degree <= 8
//!   (the deep levels, where coefficients have hundreds of words) plain big-integer
//!   products instead of RNS + CRT; the Babai subtraction `F − k·f·2^s` for degree <= 8
//!   in column form with exact 128-bit sums; the deepest Bezout coefficient by safegcd
//!   (62 divsteps per batch) instead of a 31-step binary GCD; depth-0 divisions by f
//!   through one batch inversion. The fixed-point approximations (which decide fn-dsa's
//!   rejections) are computed with fn-dsa's exact integer operations.
//!
//! ## API (module `keys`, re-exported here)
//!
//! * [`keygen_from_seed`]`(logn, seed32)`, [`keygen_with_rng`], `keygen` (OS entropy);
//!   [`SigningKey::from_seed`], [`SigningKey::from_bytes`], [`VerifyingKey::from_bytes`]
//!   (logn from the header; `*_logn` variants pin the degree), `to_bytes`,
//!   [`SigningKey::verifying_key`], `with_backend`.
//! * Signing (40-byte randomness, hedged as above): `sign_with_seed` (pure),
//!   `sign_prehash_with_seed` / `sign_prehashed_with_seed` (HashFN-DSA with a
//!   [`HashAlg`](crate::mldsa::prehash::HashAlg)), `sign_mu_with_seed` (external μ);
//!   `*_with_rng` and, with `std`, `sign` / `sign_prehash` / `sign_mu` draw the seed.
//! * Verification: `verify`, `verify_prehash`, `verify_prehashed`, `verify_mu`
//!   (`Err(InvalidSignature)` for malformed bytes, `Err(VerificationFailed)` otherwise).
//! * μ: [`compute_mu`], [`compute_mu_prehash`], [`compute_mu_prehashed`], the streaming
//!   [`MuHasher`], [`hash_vrfy_key`] (each with an `_on` form pinning the backend).
//! * Sizes and bounds: [`params`] (total functions: 0 for an unsupported logn).
//!
//! The codecs, hash-to-point, sampler, PRNG and NTRU solver are private to the crate
//! (raw shapes); every public function here checks its input and returns an
//! [`Error`](crate::Error) instead of panicking.

pub(crate) mod codec;
pub(crate) mod fxp;
pub(crate) mod hash;
mod keygen;
mod keys;
pub(crate) mod ntru;
pub mod params;
pub(crate) mod prng;
pub(crate) mod sampler;
mod sign;
mod verify;

pub use crate::traits::FnDsaSignature as Signature;
pub use hash::{
    compute_mu, compute_mu_on, compute_mu_prehash, compute_mu_prehash_on, compute_mu_prehashed,
    compute_mu_prehashed_on, hash_vrfy_key, hash_vrfy_key_on, MuHasher,
};
#[cfg(feature = "std")]
pub use keys::keygen;
pub use keys::{keygen_from_seed, keygen_with_rng, SigningKey, VerifyingKey};
pub use params::{sign_key_size, signature_size, vrfy_key_size, LOGN_1024, LOGN_512};

//! Byte encodings (FIPS 204 §7.1–7.2): SimpleBitPack / BitPack and their inverses,
//! pkEncode/skEncode/sigEncode pieces, w1Encode and the hint encoding.
//!
//! Bits are packed little-endian: coefficient i occupies bits [i·b, (i+1)·b).

use crate::kernels::mldsa::Poly;

/// Packs `f(c)` (each < 2^BITS) of the 256 coefficients into `out` (32·BITS bytes).
///
/// Works on groups of 4 coefficients (8 when BITS is odd) so each group is a whole
/// number of bytes, assembled in a `u128`: branch-free and specialised per width.
#[inline(always)]
fn pack_with<const BITS: usize>(p: &Poly, out: &mut [u8], f: impl Fn(i32) -> u32) {
    let g = if BITS % 2 == 1 { 8 } else { 4 };
    let gb = g * BITS / 8;
    debug_assert_eq!(out.len(), 32 * BITS);
    for (cs, o) in p.coeffs.chunks_exact(g).zip(out.chunks_exact_mut(gb)) {
        pack_group::<BITS>(cs, o, &f);
    }
}

/// One group of [`pack_with`]: `cs` (4 or 8 coefficients) into `o` (their bytes).
#[inline(always)]
fn pack_group<const BITS: usize>(cs: &[i32], o: &mut [u8], f: &impl Fn(i32) -> u32) {
    let mut acc: u128 = 0;
    for (i, &c) in cs.iter().enumerate() {
        acc |= (f(c) as u128) << (i * BITS);
    }
    o.copy_from_slice(&acc.to_le_bytes()[..o.len()]);
}

/// Unpacks 256 BITS-bit fields from `inp` (32·BITS bytes), mapping each with `f`.
#[inline(always)]
fn unpack_with<const BITS: usize>(inp: &[u8], p: &mut Poly, f: impl Fn(u32) -> i32) {
    let g = if BITS % 2 == 1 { 8 } else { 4 };
    let gb = g * BITS / 8;
    debug_assert_eq!(inp.len(), 32 * BITS);
    let mask = (1u128 << BITS) - 1;
    for (cs, i) in p.coeffs.chunks_exact_mut(g).zip(inp.chunks_exact(gb)) {
        let mut b = [0u8; 16];
        b[..gb].copy_from_slice(i);
        let acc = u128::from_le_bytes(b);
        for (k, c) in cs.iter_mut().enumerate() {
            *c = f(((acc >> (k * BITS)) & mask) as u32);
        }
    }
}

/// SimpleBitPack for t1 (10 bits, coefficients in [0, 2^10)).
pub fn pack_t1(p: &Poly, out: &mut [u8]) {
    pack_with::<10>(p, out, |c| c as u32);
}
pub fn unpack_t1(inp: &[u8], p: &mut Poly) {
    unpack_with::<10>(inp, p, |v| v as i32);
}

/// BitPack(t0, 2^12 − 1, 2^12): 13 bits of 2^12 − c.
pub fn pack_t0(p: &Poly, out: &mut [u8]) {
    pack_with::<13>(p, out, |c| ((1 << 12) - c) as u32);
}
pub fn unpack_t0(inp: &[u8], p: &mut Poly) {
    unpack_with::<13>(inp, p, |v| (1 << 12) - v as i32);
}

/// BitPack(s, η, η): bitlen(2η) bits of η − c.
pub fn pack_eta(p: &Poly, eta: i32, out: &mut [u8]) {
    if eta == 2 {
        pack_with::<3>(p, out, |c| (eta - c) as u32)
    } else {
        pack_with::<4>(p, out, |c| (eta - c) as u32)
    }
}
/// Inverse of [`pack_eta`]. Returns false if some field exceeds 2η (coefficient out of
/// [−η, η]); the check is accumulated without branching on the (secret) values.
pub fn unpack_eta(inp: &[u8], eta: i32, p: &mut Poly) -> bool {
    if eta == 2 {
        unpack_with::<3>(inp, p, |v| eta - v as i32)
    } else {
        unpack_with::<4>(inp, p, |v| eta - v as i32)
    }
    let mut bad = 0i32;
    for &c in p.coeffs.iter() {
        // c < −η  ⇔  c + η < 0.
        bad |= (c + eta) >> 31;
    }
    bad == 0
}

/// BitPack(z, γ1 − 1, γ1): `bits` bits of γ1 − c.
pub fn pack_z(p: &Poly, gamma1: i32, bits: usize, out: &mut [u8]) {
    if bits == 18 {
        pack_with::<18>(p, out, |c| (gamma1 - c) as u32)
    } else {
        pack_with::<20>(p, out, |c| (gamma1 - c) as u32)
    }
}
/// Every field value is valid: z ∈ [−γ1 + 1, γ1]; the norm check happens in verify.
pub fn unpack_z(inp: &[u8], gamma1: i32, bits: usize, p: &mut Poly) {
    if bits == 18 {
        unpack_with::<18>(inp, p, |v| gamma1 - v as i32)
    } else {
        unpack_with::<20>(inp, p, |v| gamma1 - v as i32)
    }
}

/// w1Encode for one polynomial: 4 or 6 bits per coefficient.
pub fn pack_w1(p: &Poly, bits: usize, out: &mut [u8]) {
    if bits == 4 {
        pack_with::<4>(p, out, |c| c as u32)
    } else {
        pack_with::<6>(p, out, |c| c as u32)
    }
}

/// HintBitPack (Algorithm 20): `out` has ω + k bytes. `h` holds 0/1 coefficients with at
/// most ω ones in total (the caller checked).
pub fn pack_hint(h: &[Poly], omega: usize, out: &mut [u8]) {
    debug_assert_eq!(out.len(), omega + h.len());
    out.fill(0);
    let mut idx = 0;
    for (i, p) in h.iter().enumerate() {
        for (j, &c) in p.coeffs.iter().enumerate() {
            if c != 0 && idx < omega {
                out[idx] = j as u8;
                idx += 1;
            }
        }
        out[omega + i] = idx as u8;
    }
}

/// HintBitUnpack (Algorithm 21), strict: cumulative counts non-decreasing and ≤ ω,
/// indices strictly increasing within each polynomial, unused index bytes zero.
/// Returns false on any violation.
pub fn unpack_hint(inp: &[u8], omega: usize, h: &mut [Poly]) -> bool {
    let k = h.len();
    if inp.len() != omega + k {
        return false;
    }
    let mut idx = 0usize;
    for i in 0..k {
        h[i] = Poly::default();
        let end = inp[omega + i] as usize;
        if end < idx || end > omega {
            return false;
        }
        let first = idx;
        while idx < end {
            if idx > first && inp[idx - 1] >= inp[idx] {
                return false;
            }
            h[i].coeffs[inp[idx] as usize] = 1;
            idx += 1;
        }
    }
    inp[idx..omega].iter().all(|&b| b == 0)
}

/// skEncode (Algorithm 24): ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0.
pub fn encode_sk(
    p: &crate::mldsa::Params,
    rho: &[u8; 32],
    key: &[u8; 32],
    tr: &[u8; 64],
    s1: &[Poly],
    s2: &[Poly],
    t0: &[Poly],
) -> zeroize::Zeroizing<alloc::vec::Vec<u8>> {
    let mut out = zeroize::Zeroizing::new(alloc::vec![0u8; p.sk_len()]);
    let (head, packed) = out.split_at_mut(SK_HEAD);
    put_sk_head(head, rho, key, tr);
    SkPacker::new(p, s1, s2, t0, packed).finish();
    out
}

/// Bytes of skEncode before the packed fields: ρ, K, tr.
pub(crate) const SK_HEAD: usize = 128;

/// skEncode's first [`SK_HEAD`] bytes: ρ ‖ K ‖ tr.
pub(crate) fn put_sk_head(head: &mut [u8], rho: &[u8; 32], key: &[u8; 32], tr: &[u8; 64]) {
    head[..32].copy_from_slice(rho);
    head[32..64].copy_from_slice(key);
    head[64..SK_HEAD].copy_from_slice(tr);
}

/// skEncode's packed fields (s1 ‖ s2 at η, then t0), one group of coefficients at a time:
/// key generation packs them in the idle cycles of H(pk)'s permutations
/// (`kernels::mldsa::avx512::hash_pack`), [`encode_sk`] all at once. A group is 8
/// coefficients (3-bit η, 13-bit t0) or 4 (4-bit η); the control flow depends only on
/// the group counter.
pub(crate) struct SkPacker<'a> {
    eta: i32,
    /// s1 ‖ s2, then t0.
    s: [&'a [Poly]; 3],
    out: &'a mut [u8],
    next: usize,
}

impl<'a> SkPacker<'a> {
    /// `out` is the secret key after ρ, K and tr: `(l + k) · eta_bytes + k · 416` bytes.
    pub(crate) fn new(
        p: &crate::mldsa::Params,
        s1: &'a [Poly],
        s2: &'a [Poly],
        t0: &'a [Poly],
        out: &'a mut [u8],
    ) -> Self {
        debug_assert_eq!(
            out.len(),
            (s1.len() + s2.len()) * p.eta_bytes() + t0.len() * 416
        );
        SkPacker {
            eta: p.eta,
            s: [s1, s2, t0],
            out,
            next: 0,
        }
    }

    /// Groups of one η polynomial: 32 (3 bits, 8 coefficients) or 64 (4 bits, 4).
    fn eta_groups(&self) -> usize {
        if self.eta == 2 {
            32
        } else {
            64
        }
    }

    /// Bytes of one η polynomial (256 · 3 or 4 bits).
    fn eta_bytes(&self) -> usize {
        if self.eta == 2 {
            96
        } else {
            128
        }
    }

    fn total(&self) -> usize {
        (self.s[0].len() + self.s[1].len()) * self.eta_groups() + self.s[2].len() * 32
    }

    /// Packs the next group, if any is left.
    #[inline(always)]
    pub(crate) fn step(&mut self) {
        let eg = self.eta_groups();
        let n_eta = (self.s[0].len() + self.s[1].len()) * eg;
        let i = self.next;
        if i < n_eta {
            let (poly, grp) = (i / eg, i % eg);
            let l = self.s[0].len();
            let src = if poly < l {
                &self.s[0][poly]
            } else {
                &self.s[1][poly - l]
            };
            let eta = self.eta;
            if eta == 2 {
                let o = &mut self.out[poly * 96 + grp * 3..][..3]; // η = 2: 96 bytes
                pack_group::<3>(&src.coeffs[grp * 8..][..8], o, &|c| (eta - c) as u32);
            } else {
                let o = &mut self.out[poly * 128 + grp * 2..][..2];
                pack_group::<4>(&src.coeffs[grp * 4..][..4], o, &|c| (eta - c) as u32);
            }
        } else if i < self.total() {
            let j = i - n_eta;
            let (poly, grp) = (j / 32, j % 32);
            let base = (self.s[0].len() + self.s[1].len()) * self.eta_bytes();
            let o = &mut self.out[base + poly * 416 + grp * 13..][..13];
            pack_group::<13>(&self.s[2][poly].coeffs[grp * 8..][..8], o, &|c| {
                ((1 << 12) - c) as u32
            });
        } else {
            return;
        }
        self.next += 1;
    }

    /// Packs every group left.
    pub(crate) fn finish(mut self) {
        while self.next < self.total() {
            self.step();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::mldsa::N;
    #[test]
    fn round_trips() {
        let mut p = Poly::default();
        for i in 0..N {
            p.coeffs[i] = (i as i32 * 37) % 1024;
        }
        let mut b = [0u8; 320];
        pack_t1(&p, &mut b);
        let mut q = Poly::default();
        unpack_t1(&b, &mut q);
        assert_eq!(p, q);
        for i in 0..N {
            p.coeffs[i] = (i as i32 * 37) % 8192 - 4095;
        }
        let mut b = [0u8; 416];
        pack_t0(&p, &mut b);
        unpack_t0(&b, &mut q);
        assert_eq!(p, q);
        for eta in [2, 4] {
            for i in 0..N {
                p.coeffs[i] = (i as i32 % (2 * eta + 1)) - eta;
            }
            let mut b = [0u8; 128];
            let n = if eta == 2 { 96 } else { 128 };
            pack_eta(&p, eta, &mut b[..n]);
            assert!(unpack_eta(&b[..n], eta, &mut q));
            assert_eq!(p, q);
        }
        // η = 2 field value 7 decodes to −5: rejected.
        let bad = [0xFFu8; 96];
        assert!(!unpack_eta(&bad, 2, &mut q));
    }
}

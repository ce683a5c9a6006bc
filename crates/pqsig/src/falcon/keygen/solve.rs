//! NTRUSolve: given f, g (small, odd resultants), find F, G with f·G − g·F = q over
//! Z[X]/(X^n + 1), exactly as the round-3 reference key generator does.
//!
//! Outline (depth d works on degree n_d = n/2^d):
//! 1. Field norms down to degree 1: f_{d+1}(X^2) = f_d(X)·f_d(−X). For n_d > 16 they are
//!    computed in RNS (31-bit primes) with the NTT, where the norm is the product of the
//!    values at each pair of opposite roots, as in the reference; below, as exact binary
//!    products. The deepest f, g are the resultants Res(f, X^n+1), Res(g, X^n+1).
//! 2. Extended GCD of the two resultants (binary, constant-time), times q.
//! 3. Lifting: from (F', G') at depth d+1, the unreduced (F, G) = (F'(X^2)·g(−X),
//!    G'(X^2)·f(−X)) at depth d (per prime in the NTT and rebuilt with the CRT for
//!    n_d > 16, exact binary products below), then Babai reduction against (f, g):
//!    k = round((F·adj f + G·adj g)/(f·adj f + g·adj g)) evaluated with the FFT on
//!    floating-point approximations of the top words, with a decreasing scale,
//!    repeated until the scale reaches zero; (F, G) −= k·(f, g)·2^scale exactly. Depths
//!    1 and 0 use the reference's special paths (one FFT pass; one 31-bit prime).
//!
//! Byte-exactness with the KATs requires the same integers and the same floating-point
//! operations as the reference at every step, including the failure conditions (out of
//! range reduction coefficients, a non-unit GCD, final coefficients over the bound, the
//! final check of the equation). The word lengths, the Babai schedule and the
//! floating-point steps are the reference's. Integer parts are free in *how* they
//! compute: the reference's values are exact whenever they fit its fixed word lengths,
//! and the binary shortcuts check that they do (falling back to the reference's RNS
//! computation otherwise, which never happens with Gaussian f, g); where the reference
//! reduces a product modulo a fixed set of primes (k·f at depth <= 4), the same primes
//! are used, so even a wrap-around would be reproduced.
//!
//! Constant time: no branch or memory index depends on secret values, except the
//! rejections (a failed candidate is discarded as a whole; only the fact that it failed
//! and where is revealed about a key that is never used) and the fallbacks above. Every
//! scratch buffer is zeroized when dropped.

use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

use super::poly;
use crate::falcon::ntru::modp::{self, SmallPrime, PRIMES};
use crate::falcon::ntru::zint;
use crate::kernels::falcon::fpr::{self, Fpr};
use crate::kernels::falcon::keygen::KeygenKernels;

/// Word lengths (31-bit words) of f and g at each depth (enough for the deepest
/// resultants), as in the reference.
const MAX_BL_SMALL: [usize; 11] = [1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209];
/// Word lengths of the unreduced F and G at each depth.
const MAX_BL_LARGE: [usize; 10] = [2, 2, 5, 7, 12, 21, 40, 78, 157, 308];
/// Measured bit length (average, standard deviation) of the coefficients of (f, g) at
/// each depth; the Babai schedule assumes average ± 6σ.
const BITLENGTH: [(i32, i32); 11] = [
    (4, 0),
    (11, 1),
    (24, 1),
    (50, 1),
    (102, 1),
    (202, 2),
    (401, 4),
    (794, 5),
    (1577, 8),
    (3138, 13),
    (6308, 25),
];
/// Up to this depth the reference computes k·f in RNS with slen + 1 primes (a product
/// that could in principle wrap modulo their product; we reproduce that exactly).
const DEPTH_INT_FG: u32 = 4;

type Buf<T> = Zeroizing<Vec<T>>;

fn buf_u32(len: usize) -> Buf<u32> {
    Zeroizing::new(vec![0u32; len])
}
fn buf_fpr(len: usize) -> Buf<Fpr> {
    Zeroizing::new(vec![fpr::ZERO; len])
}

/// Solves the NTRU equation for (f, g) of degree 2^logn (1 <= logn <= 10). On success
/// writes F and G (coefficients in [-lim, lim]) and returns true; on failure returns
/// false (the caller draws a new (f, g)). F and G are written only on success.
#[allow(non_snake_case)]
pub(crate) fn solve_ntru(
    kk: &KeygenKernels,
    logn: u32,
    f: &[i8],
    g: &[i8],
    F: &mut [i8],
    G: &mut [i8],
    lim: i32,
) -> bool {
    let n = 1usize << logn;
    let chain = FgChain::new(kk, logn, f, g);

    // Deepest level: the resultants and their Bezout coefficients (times q).
    let Some((mut fd, mut gd)) = solve_deepest(kk, logn, &chain) else {
        return false;
    };

    // Lifting.
    let last_generic = if logn <= 2 { 0 } else { 2 };
    let mut depth = logn;
    while depth > last_generic {
        depth -= 1;
        match solve_intermediate(kk, logn, depth, &chain, &fd, &gd) {
            Some((a, b)) => {
                fd = a;
                gd = b;
            }
            None => return false,
        }
    }
    let (fw, gw) = if logn > 2 {
        let Some((a, b)) = solve_depth1(kk, logn, f, g, &fd, &gd) else {
            return false;
        };
        solve_depth0(kk, logn, f, g, &a, &b)
    } else {
        (fd, gd)
    };

    // F and G have one (signed 31-bit) word per coefficient: bound them.
    let mut Ft = Zeroizing::new(vec![0i8; n]);
    let mut Gt = Zeroizing::new(vec![0i8; n]);
    for (dst, src) in [(&mut Ft, &fw), (&mut Gt, &gw)] {
        for (d, &w) in dst.iter_mut().zip(src.iter()) {
            let z = poly::one_to_plain(w);
            // A bound miss discards the candidate (keygen rejection, declassified: docs/ARCHITECTURE.md).
            if crate::ct::public((z < -lim) | (z > lim)) {
                return false;
            }
            *d = z as i8;
        }
    }
    // Check f·G − g·F = q modulo p0 (all terms are small, so this is exact).
    if !crate::ct::public(check_equation(kk, logn, f, g, &Ft, &Gt)) {
        return false;
    }
    F[..n].copy_from_slice(&Ft);
    G[..n].copy_from_slice(&Gt);
    true
}

/// f·G − g·F == q modulo (X^n+1, p0), via the NTT.
#[allow(non_snake_case)]
fn check_equation(kk: &KeygenKernels, logn: u32, f: &[i8], g: &[i8], F: &[i8], G: &[i8]) -> bool {
    let n = 1usize << logn;
    let sp = &PRIMES[0];
    let p = sp.p;
    let mut t = buf_u32(5 * n);
    let (gm, rest) = t.split_at_mut(n);
    let (a, rest) = rest.split_at_mut(n);
    let (b, rest) = rest.split_at_mut(n);
    let (c, d) = rest.split_at_mut(n);
    sp.mkgm(logn, gm);
    for i in 0..n {
        a[i] = modp::set(f[i] as i32, p);
        b[i] = modp::set(g[i] as i32, p);
        c[i] = modp::set(F[i] as i32, p);
        d[i] = modp::set(G[i] as i32, p);
    }
    (kk.ntru.ntt)(sp, logn, a, gm);
    (kk.ntru.ntt)(sp, logn, b, gm);
    (kk.ntru.ntt)(sp, logn, c, gm);
    (kk.ntru.ntt)(sp, logn, d, gm);
    // (fG − gF)/R must equal q/R in every slot.
    let r = sp.mmul(12289, 1);
    let mut bad = 0u32;
    for i in 0..n {
        let z = modp::sub(sp.mmul(a[i], d[i]), sp.mmul(b[i], c[i]), p);
        bad |= z ^ r;
    }
    bad == 0
}

/// The (f, g) at every depth. Down to degree BINARY_MAX_N they are computed in RNS +
/// NTT form (block d: f_d then g_d, each MAX_BL_SMALL[d] rows, one per prime, of
/// n_d = n/2^d residues), as the reference does; below, as exact binary products
/// (f_{d+1}(X^2) = f_d(X)·f_d(−X)), checked to fit the reference's ranges (else the
/// chain is redone in RNS, so the values always equal the reference's).
struct FgChain {
    data: Buf<u32>,
    off: [usize; 11],
    /// Whether block d holds the NTT rows of level d.
    ntt_ok: [bool; 11],
    /// Plain (signed) f_d then g_d, MAX_BL_SMALL[d] words each (word-major), where
    /// computed (empty otherwise); at the deepest level, the resultants (unsigned).
    plain: [Buf<u32>; 11],
}

impl FgChain {
    fn new(kk: &KeygenKernels, logn: u32, f: &[i8], g: &[i8]) -> FgChain {
        let mut off = [0usize; 11];
        let mut total = 0;
        for d in 0..=logn as usize {
            off[d] = total;
            total += (2 * MAX_BL_SMALL[d]) << (logn as usize - d);
        }
        let mut data = buf_u32(total);
        let n = 1usize << logn;
        // Depth 0: f, g modulo p0, in NTT form.
        {
            let sp = &PRIMES[0];
            let mut gm = buf_u32(n);
            sp.mkgm(logn, &mut gm);
            let blk = &mut data[..2 * n];
            let (bf, bg) = blk.split_at_mut(n);
            for i in 0..n {
                bf[i] = modp::set(f[i] as i32, sp.p);
                bg[i] = modp::set(g[i] as i32, sp.p);
            }
            (kk.ntru.ntt)(sp, logn, bf, &gm);
            (kk.ntru.ntt)(sp, logn, bg, &gm);
        }
        let mut chain = FgChain {
            data,
            off,
            ntt_ok: [false; 11],
            plain: core::array::from_fn(|_| buf_u32(0)),
        };
        chain.ntt_ok[0] = true;
        // RNS steps while the degree is large.
        let mut d = 0;
        while d < logn && (n >> d) > BINARY_MAX_N {
            chain.step(kk, logn, d);
            d += 1;
        }
        if d == logn {
            return chain;
        }
        // Binary steps from level d0 = d.
        let d0 = d;
        if chain.plain[d0 as usize].is_empty() {
            let (ft, gt) = chain.plain_from_ntt(kk, logn, d0);
            let slen = MAX_BL_SMALL[d0 as usize];
            let nd = n >> d0;
            let mut both = buf_u32(2 * slen * nd);
            both[..slen * nd].copy_from_slice(&ft);
            both[slen * nd..].copy_from_slice(&gt);
            chain.plain[d0 as usize] = both;
        }
        let mut ok = true;
        while d < logn {
            match binary_norm_step(&chain.plain[d as usize], logn - d, d + 1 == logn, d) {
                Some(next) => chain.plain[d as usize + 1] = next,
                None => {
                    ok = false;
                    break;
                }
            }
            d += 1;
        }
        if !ok {
            // A value left the reference's range: redo the deep levels exactly as the
            // reference (RNS). Never happens with Gaussian (f, g).
            for dd in d0 + 1..=logn {
                chain.plain[dd as usize] = buf_u32(0);
            }
            for dd in d0..logn {
                chain.step(kk, logn, dd);
            }
        }
        chain
    }

    /// f_d and g_d (NTT rows), if this level was computed in RNS.
    fn level(&self, logn: u32, d: u32) -> Option<(&[u32], &[u32])> {
        if !self.ntt_ok[d as usize] {
            return None;
        }
        let sz = MAX_BL_SMALL[d as usize] << (logn - d);
        let o = self.off[d as usize];
        Some((&self.data[o..o + sz], &self.data[o + sz..o + 2 * sz]))
    }

    /// Computes level d+1 from level d (RNS).
    fn step(&mut self, kk: &KeygenKernels, logn_top: u32, d: u32) {
        let logn = logn_top - d;
        let n = 1usize << logn;
        let hn = n >> 1;
        let slen = MAX_BL_SMALL[d as usize];
        let tlen = MAX_BL_SMALL[d as usize + 1];
        self.ntt_ok[d as usize + 1] = true;
        let (src, dst) = self.data.split_at_mut(self.off[d as usize + 1]);
        let src = &src[self.off[d as usize]..];
        let (df, dg) = dst[..2 * tlen * hn].split_at_mut(tlen * hn);

        // Primes already present: the norm is the product of each pair of values.
        for u in 0..slen {
            let sp = &PRIMES[u];
            for (blk, dblk) in [(0, &mut *df), (1, &mut *dg)] {
                let row = &src[(blk * slen + u) * n..(blk * slen + u + 1) * n];
                let drow = &mut dblk[u * hn..(u + 1) * hn];
                for v in 0..hn {
                    drow[v] = sp.mmul(sp.mmul(row[2 * v], row[2 * v + 1]), sp.r2);
                }
            }
        }
        if tlen == slen {
            return;
        }
        // More primes: rebuild f_d, g_d as plain integers (kept for the lifting), then
        // reduce them.
        let mut plain = buf_u32(2 * slen * n);
        plain.copy_from_slice(&src[..2 * slen * n]);
        let mut tmp = buf_u32(3 * n + slen);
        {
            let (igm, _) = tmp.split_at_mut(n);
            for (u, sp) in PRIMES.iter().enumerate().take(slen) {
                sp.mkigm(logn, igm);
                for blk in 0..2 {
                    let o = (blk * slen + u) * n;
                    (kk.ntru.intt)(sp, logn, &mut plain[o..o + n], igm);
                }
            }
        }
        for blk in 0..2 {
            let o = blk * slen * n;
            (kk.ntru.rebuild_crt)(&mut plain[o..o + slen * n], slen, n, 1, true, &mut tmp);
        }
        let (gm, rest) = tmp.split_at_mut(n);
        let t1 = &mut rest[..n];
        for u in slen..tlen {
            let sp = &PRIMES[u];
            sp.mkgm(logn, gm);
            for (blk, dblk) in [(0, &mut *df), (1, &mut *dg)] {
                let o = blk * slen * n;
                (kk.ntru.mod_small_signed_batch)(t1, &plain[o..], slen, n, sp, sp.pow2_31(slen));
                (kk.ntru.ntt)(sp, logn, t1, gm);
                let drow = &mut dblk[u * hn..(u + 1) * hn];
                for v in 0..hn {
                    drow[v] = sp.mmul(sp.mmul(t1[2 * v], t1[2 * v + 1]), sp.r2);
                }
            }
        }
        self.plain[d as usize] = plain;
    }

    /// Plain f_d, g_d from the NTT rows (inverse NTT and CRT, as the reference).
    fn plain_from_ntt(&self, kk: &KeygenKernels, logn: u32, d: u32) -> (Buf<u32>, Buf<u32>) {
        let slen = MAX_BL_SMALL[d as usize];
        let n = 1usize << (logn - d);
        let mut ft = buf_u32(slen * n);
        let mut gt = buf_u32(slen * n);
        let (cf, cg) = self.level(logn, d).expect("RNS level");
        ft.copy_from_slice(cf);
        gt.copy_from_slice(cg);
        let mut igm = buf_u32(n);
        for u in 0..slen {
            let sp = &PRIMES[u];
            sp.mkigm(logn - d, &mut igm);
            (kk.ntru.intt)(sp, logn - d, &mut ft[u * n..(u + 1) * n], &igm);
            (kk.ntru.intt)(sp, logn - d, &mut gt[u * n..(u + 1) * n], &igm);
        }
        let mut tmp = buf_u32(slen + 2 * n);
        (kk.ntru.rebuild_crt)(&mut ft, slen, n, 1, true, &mut tmp);
        (kk.ntru.rebuild_crt)(&mut gt, slen, n, 1, true, &mut tmp);
        (ft, gt)
    }

    /// Plain f_d, g_d (MAX_BL_SMALL[d] words, n_d coefficients each, word-major).
    fn plain(&self, kk: &KeygenKernels, logn: u32, d: u32) -> (Buf<u32>, Buf<u32>) {
        let saved = &self.plain[d as usize];
        if saved.is_empty() {
            return self.plain_from_ntt(kk, logn, d);
        }
        let slen = MAX_BL_SMALL[d as usize];
        let n = 1usize << (logn - d);
        let mut ft = buf_u32(slen * n);
        let mut gt = buf_u32(slen * n);
        ft.copy_from_slice(&saved[..slen * n]);
        gt.copy_from_slice(&saved[slen * n..2 * slen * n]);
        (ft, gt)
    }
}

/// One exact step of the field norm in binary: from f_d, g_d (plain, slen words, n
/// coefficients, word-major; f then g) to f_{d+1} = A^2 − Y·B^2 mod (Y^(n/2)+1) where
/// f_d(X) = A(X^2) + X·B(X^2), likewise g. Output: MAX_BL_SMALL[d+1] words per
/// coefficient. None if a value does not fit the reference's range for that length
/// (signed, or unsigned for the resultants at the last step).
fn binary_norm_step(src: &[u32], logn: u32, last: bool, d: u32) -> Option<Buf<u32>> {
    let n = 1usize << logn;
    let hn = n >> 1;
    let slen = MAX_BL_SMALL[d as usize];
    let tlen = MAX_BL_SMALL[d as usize + 1];
    let w = (2 * slen + 1).max(tlen);
    let mut out = buf_u32(2 * tlen * hn);
    let mut abs = buf_u32(n * slen);
    let mut neg = buf_u32(n);
    let mut acc = buf_u32(hn * w);
    let mut prod = buf_u32(2 * slen);
    let mut bad = 0u32;
    for blk in 0..2 {
        zint::split_signs(
            &mut abs,
            &mut neg,
            &src[blk * slen * n..(blk + 1) * slen * n],
            slen,
            n,
        );
        acc.fill(0);
        // A_i = f_{2i}, B_i = f_{2i+1}. A_i·A_j lands at i+j (negated past hn); B_i·B_j
        // at i+j+1 with a minus sign (negated again past hn). Pairs i < j count twice.
        for par in 0..2usize {
            for i in 0..hn {
                for j in i..hn {
                    let (ci, cj) = (2 * i + par, 2 * j + par);
                    zint::mul_words(
                        &mut prod,
                        &abs[ci * slen..(ci + 1) * slen],
                        &abs[cj * slen..(cj + 1) * slen],
                    );
                    let pos = i + j + par;
                    let (k, wrap) = if pos < hn { (pos, 0) } else { (pos - hn, 1) };
                    let sgn = neg[ci] ^ neg[cj] ^ ((par as u32) ^ wrap).wrapping_neg();
                    let a = &mut acc[k * w..(k + 1) * w];
                    zint::add_signed_words(a, w, 1, &prod, sgn);
                    if i != j {
                        zint::add_signed_words(a, w, 1, &prod, sgn);
                    }
                }
            }
        }
        for k in 0..hn {
            let a = &acc[k * w..(k + 1) * w];
            bad |= if last {
                // Resultant: positive and below 2^(31·tlen − 2) < P.
                poly::exceeds_bits(a, 31 * tlen - 2)
            } else {
                poly::exceeds_bits(a, 31 * tlen - 3)
            };
            for j in 0..tlen {
                out[blk * tlen * hn + j * hn + k] = a[j];
            }
        }
    }
    if crate::ct::public(bad != 0) {
        return None;
    }
    Some(out)
}

/// Deepest level: (F, G) with Res(f)·G − Res(g)·F = q, as MAX_BL_SMALL[logn]-word
/// integers. None if the resultants are not coprime (or the product by q overflows).
fn solve_deepest(kk: &KeygenKernels, logn: u32, chain: &FgChain) -> Option<(Buf<u32>, Buf<u32>)> {
    let len = MAX_BL_SMALL[logn as usize];
    let mut fp = buf_u32(len);
    let mut gp = buf_u32(len);
    let mut tmp = buf_u32(4 * len + 2);
    if let Some((rf, rg)) = chain.level(logn, logn) {
        fp.copy_from_slice(&rf[..len]);
        gp.copy_from_slice(&rg[..len]);
        // The resultants are positive: no signed normalisation.
        (kk.ntru.rebuild_crt)(&mut fp, len, 1, 1, false, &mut tmp);
        (kk.ntru.rebuild_crt)(&mut gp, len, 1, 1, false, &mut tmp);
    } else {
        let r = &chain.plain[logn as usize];
        fp.copy_from_slice(&r[..len]);
        gp.copy_from_slice(&r[len..2 * len]);
    }
    let mut big_f = buf_u32(len);
    let mut big_g = buf_u32(len);
    // Res(f)·G − Res(g)·F = 1.
    // Whether the GCD is 1 decides a keygen rejection (declassified: docs/ARCHITECTURE.md).
    if !crate::ct::public(zint::bezout_uv(&mut big_g, &mut big_f, &fp, &gp, &mut tmp) == u32::MAX) {
        return None;
    }
    // Both products are computed (no short-circuit on a secret carry); an overflow
    // discards the candidate (keygen rejection, declassified: docs/ARCHITECTURE.md).
    let carry = zint::mul_small(&mut big_f, 12289) | zint::mul_small(&mut big_g, 12289);
    if crate::ct::public(carry != 0) {
        return None;
    }
    Some((big_f, big_g))
}

solver_loop! {
/// Converts `n` big integers of `flen` words (word-major, `stride`) to floating point,
/// summing the words from the lowest, as the reference does (`poly_big_to_fp`).
fn big_to_fp(d: &mut [Fpr], x: &[u32], flen: usize, stride: usize, n: usize) {
    if flen == 0 {
        d[..n].fill(fpr::ZERO);
        return;
    }
    // Blocks of coefficients, words outer and coefficients inner (vectorisable; the
    // per-coefficient order of the additions is the reference's, lowest word first).
    const B: usize = 32;
    let mut neg = [0u32; B];
    let mut cc = [0u32; B];
    let mut acc = [fpr::ZERO; B];
    let mut i0 = 0;
    while i0 < n {
        let m = B.min(n - i0);
        acc = [fpr::ZERO; B];
        // Negative values: load |x| word by word (two's complement negation on the
        // fly) and negate each word's contribution.
        let top = &x[(flen - 1) * stride + i0..(flen - 1) * stride + i0 + m];
        for k in 0..m {
            neg[k] = (top[k] >> 30).wrapping_neg();
            cc[k] = neg[k] & 1;
        }
        let mut fsc = fpr::ONE;
        for v in 0..flen {
            let row = &x[v * stride + i0..v * stride + i0 + m];
            for k in 0..m {
                let mut w = (row[k] ^ (neg[k] >> 1)).wrapping_add(cc[k]);
                cc[k] = w >> 31;
                w &= 0x7FFF_FFFF;
                w = w.wrapping_sub((w << 1) & neg[k]);
                acc[k] = acc[k].add(Fpr::of(w as i32 as i64).mul(fsc));
            }
            fsc = fsc.mul(fpr::PTWO31);
        }
        d[i0..i0 + m].copy_from_slice(&acc[..m]);
        i0 += m;
    }
    // Approximations of secret values: do not leave them on the stack.
    crate::wipe::wipe(&mut neg, [0; B]);
    crate::wipe::wipe(&mut cc, [0; B]);
    crate::wipe::wipe(&mut acc, [fpr::ZERO; B]);
}
}

/// Reduces `v` (any i32) modulo p into [0, p).
#[inline(always)]
fn set_wide(v: i32, p: u32) -> u32 {
    let w = modp::set(v, p);
    // |v| < 2^31 < 2p: at most one more subtraction.
    let d = w.wrapping_sub(p);
    d.wrapping_add(p & modp::tbmask(d))
}

/// Computes the unreduced (F, G) at depth `depth` (degree n = 2^logn, logn = logn_top −
/// depth) modulo the first `llen` primes, from (F', G') at depth+1 (`dlen`-word
/// integers, n/2 of them) and the NTT rows of f_d, g_d given by `fg_ntt(u, fx, gx)`.
/// Output: `ft`, `gt` (llen rows of n residues each, coefficient form).
#[allow(clippy::too_many_arguments)]
fn lift_rns(
    kk: &KeygenKernels,
    logn: u32,
    llen: usize,
    fd: &[u32],
    gd: &[u32],
    dlen: usize,
    out_f: &mut [u32],
    out_g: &mut [u32],
    mut fg_ntt: impl FnMut(usize, &SmallPrime, &[u32], &mut [u32], &mut [u32]),
) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let mut tmp = buf_u32(6 * n);
    let (gm, rest) = tmp.split_at_mut(n);
    let (igm, rest) = rest.split_at_mut(n);
    let (fx, rest) = rest.split_at_mut(n);
    let (gx, rest) = rest.split_at_mut(n);
    let (fp, rest) = rest.split_at_mut(hn);
    let gp = &mut rest[..hn];
    for u in 0..llen {
        let sp = &PRIMES[u];
        sp.mkgm(logn, gm);
        sp.mkigm(logn, igm);
        fg_ntt(u, sp, gm, fx, gx);
        (kk.ntru.mod_small_signed_batch)(fp, fd, dlen, hn, sp, sp.pow2_31(dlen));
        (kk.ntru.mod_small_signed_batch)(gp, gd, dlen, hn, sp, sp.pow2_31(dlen));
        (kk.ntru.ntt)(sp, logn - 1, fp, gm);
        (kk.ntru.ntt)(sp, logn - 1, gp, gm);
        // F = F'(X^2)·g(−X), G = G'(X^2)·f(−X): at the pair (w, −w), g(−w) is the other
        // value of the pair.
        let rf = &mut out_f[u * n..(u + 1) * n];
        let rg = &mut out_g[u * n..(u + 1) * n];
        for v in 0..hn {
            let m_f = sp.mmul(fp[v], sp.r2);
            let m_g = sp.mmul(gp[v], sp.r2);
            rf[2 * v] = sp.mmul(gx[2 * v + 1], m_f);
            rf[2 * v + 1] = sp.mmul(gx[2 * v], m_f);
            rg[2 * v] = sp.mmul(fx[2 * v + 1], m_g);
            rg[2 * v + 1] = sp.mmul(fx[2 * v], m_g);
        }
        (kk.ntru.intt)(sp, logn, rf, igm);
        (kk.ntru.intt)(sp, logn, rg, igm);
    }
}

/// Up to this degree the field norms and the unreduced (F, G) are computed as exact
/// binary products (cheaper than ~llen NTTs and a quadratic CRT when n is small and the
/// integers long).
const BINARY_MAX_N: usize = 16;

/// Unreduced F = F'(X^2)·g(−X), G = G'(X^2)·f(−X) at degree n = 2^logn, computed
/// exactly with schoolbook products of the big coefficients, and written as llen-word
/// integers (word-major, stride n). That equals the reference's value (reduced modulo
/// the product P of llen primes and centred) whenever |F|, |G| < P/2; P/2 > 2^(31·llen-3)
/// for every llen used, so the result is checked against 2^(31·llen-3) and None is
/// returned otherwise (the caller then uses the RNS path: a branch on an event that
/// never happens with the Gaussian f, g, and reveals only that it did).
#[allow(clippy::too_many_arguments)]
fn lift_binary(
    logn: u32,
    fd: &[u32],
    gd: &[u32],
    dlen: usize,
    ft: &[u32],
    gt: &[u32],
    slen: usize,
    llen: usize,
) -> Option<(Buf<u32>, Buf<u32>)> {
    let n = 1usize << logn;
    let hn = n >> 1;
    // Accumulator width: the sum of n/2 products < 2^(31·(dlen+slen) + 8).
    let w = (dlen + slen + 1).max(llen);
    let mut absd = buf_u32(hn * dlen);
    let mut negd = buf_u32(hn);
    let mut abss = buf_u32(n * slen);
    let mut negs = buf_u32(n);
    let mut acc = buf_u32(n * w);
    let mut prod = buf_u32(dlen + slen);
    let mut out_f = buf_u32(llen * n);
    let mut out_g = buf_u32(llen * n);
    let mut ok = 0u32;
    for (src_d, src_s, out) in [(fd, gt, &mut out_f), (gd, ft, &mut out_g)] {
        zint::split_signs(&mut absd, &mut negd, src_d, dlen, hn);
        zint::split_signs(&mut abss, &mut negs, src_s, slen, n);
        acc.fill(0);
        for i in 0..hn {
            let a = &absd[i * dlen..(i + 1) * dlen];
            for j in 0..n {
                let b = &abss[j * slen..(j + 1) * slen];
                zint::mul_words(&mut prod, a, b);
                // (−1)^j from the substitution X -> −X; a sign flip when 2i + j wraps.
                let (k, wrap) = if 2 * i + j < n {
                    (2 * i + j, 0)
                } else {
                    (2 * i + j - n, 1)
                };
                let neg = negd[i] ^ negs[j] ^ ((j as u32 & 1) ^ wrap).wrapping_neg();
                zint::add_signed_words(&mut acc[k * w..(k + 1) * w], w, 1, &prod, neg);
            }
        }
        for k in 0..n {
            let x = &acc[k * w..(k + 1) * w];
            ok |= poly::exceeds_bits(x, 31 * llen - 3);
            for j in 0..llen {
                out[j * n + k] = x[j];
            }
        }
    }
    if crate::ct::public(ok != 0) {
        return None;
    }
    Some((out_f, out_g))
}

/// Generic lifting step at `depth` (used for depth >= 2, and for every depth when
/// logn <= 2). Input: F', G' at depth+1 (MAX_BL_SMALL[depth+1] words, n/2 each).
/// Output: F, G at depth (MAX_BL_SMALL[depth] words, n each).
fn solve_intermediate(
    kk: &KeygenKernels,
    logn_top: u32,
    depth: u32,
    chain: &FgChain,
    fd: &[u32],
    gd: &[u32],
) -> Option<(Buf<u32>, Buf<u32>)> {
    let logn = logn_top - depth;
    let n = 1usize << logn;
    let slen = MAX_BL_SMALL[depth as usize];
    let dlen = MAX_BL_SMALL[depth as usize + 1];
    let llen = MAX_BL_LARGE[depth as usize];

    // f_d, g_d: NTT rows (from the chain) and plain integers (slen words).
    let rows = chain.level(logn_top, depth);
    let (ft, gt) = chain.plain(kk, logn_top, depth);

    // Unreduced F, G as llen-word integers: exact products in binary at small degrees,
    // else modulo llen primes and the CRT (as the reference).
    let lifted = if n <= BINARY_MAX_N {
        lift_binary(logn, fd, gd, dlen, &ft, &gt, slen, llen)
    } else {
        None
    };
    let (mut big_f, mut big_g) = match lifted {
        Some(v) => v,
        None => {
            let mut big_f = buf_u32(llen * n);
            let mut big_g = buf_u32(llen * n);
            lift_rns(
                kk,
                logn,
                llen,
                fd,
                gd,
                dlen,
                &mut big_f,
                &mut big_g,
                |u, sp, gm, fx, gx| {
                    if let (Some((cf, cg)), true) = (rows, u < slen) {
                        fx.copy_from_slice(&cf[u * n..(u + 1) * n]);
                        gx.copy_from_slice(&cg[u * n..(u + 1) * n]);
                    } else {
                        (kk.ntru.mod_small_signed_batch)(fx, &ft, slen, n, sp, sp.pow2_31(slen));
                        (kk.ntru.mod_small_signed_batch)(gx, &gt, slen, n, sp, sp.pow2_31(slen));
                        (kk.ntru.ntt)(sp, logn, fx, gm);
                        (kk.ntru.ntt)(sp, logn, gx, gm);
                    }
                },
            );
            let mut tmp = buf_u32(llen + 2 * n);
            (kk.ntru.rebuild_crt)(&mut big_f, llen, n, 1, true, &mut tmp);
            (kk.ntru.rebuild_crt)(&mut big_g, llen, n, 1, true, &mut tmp);
            (big_f, big_g)
        }
    };

    // Babai reduction.
    let mut rt = buf_fpr(4 * n + n / 2 + n);
    let (rt1, rest) = rt.split_at_mut(n);
    let (rt2, rest) = rest.split_at_mut(n);
    let (rt3, rest) = rest.split_at_mut(n);
    let (rt4, rest) = rest.split_at_mut(n);
    let (rt5, _) = rest.split_at_mut(n / 2 + n);

    // f, g approximated by their top (at most 10) words; scaled down by 2^scale_fg.
    let rlen = slen.min(10);
    big_to_fp(kk, rt3, &ft[(slen - rlen) * n..], rlen, n, n);
    big_to_fp(kk, rt4, &gt[(slen - rlen) * n..], rlen, n, n);
    let scale_fg = 31 * (slen - rlen) as i32;
    let (avg, std) = BITLENGTH[depth as usize];
    let minbl_fg = avg - 6 * std;
    let maxbl_fg = avg + 6 * std;

    // rt5 = 1/(f·adj f + g·adj g); rt3, rt4 = adj f, adj g.
    (kk.fft.fft)(rt3, logn);
    (kk.fft.fft)(rt4, logn);
    (kk.fft.poly_invnorm2_fft)(rt5, rt3, rt4, logn);
    (kk.fft.poly_adj_fft)(rt3, logn);
    (kk.fft.poly_adj_fft)(rt4, logn);

    let mut kprod = KfProduct::new(kk, logn, depth, &ft, &gt, slen);
    let mut k = buf_u32(n);

    let mut fglen = llen;
    let mut maxbl_fg_big = 31 * llen as i32;
    let mut scale_k = maxbl_fg_big - minbl_fg;
    loop {
        let rlen = fglen.min(10);
        let scale_big = 31 * (fglen - rlen) as i32;
        big_to_fp(kk, rt1, &big_f[(fglen - rlen) * n..], rlen, n, n);
        big_to_fp(kk, rt2, &big_g[(fglen - rlen) * n..], rlen, n, n);

        // rt2 = (F·adj f + G·adj g) / (f·adj f + g·adj g).
        (kk.fft.fft)(rt1, logn);
        (kk.fft.fft)(rt2, logn);
        (kk.fft.poly_mul_fft)(rt1, rt3, logn);
        (kk.fft.poly_mul_fft)(rt2, rt4, logn);
        (kk.fft.poly_add)(rt2, rt1, logn);
        (kk.fft.poly_mul_autoadj_fft)(rt2, rt5, logn);
        (kk.fft.ifft)(rt2, logn);

        // Rescale to 2^scale_k: multiply by 2^-dc (a public exponent).
        let pdc = pow2_neg(scale_k - scale_big + scale_fg);
        for (ku, &x) in k.iter_mut().zip(rt2.iter()) {
            let xv = x.mul(pdc);
            // Out of range means the reduction failed: the candidate is dropped.
            if crate::ct::public(!fpr::MTWO31M1.lt(xv) | !xv.lt(fpr::PTWO31M1)) {
                return None;
            }
            *ku = xv.rint() as i32 as u32;
        }

        // (F, G) -= (k·f, k·g)·2^scale_k, modulo 2^(31·fglen).
        let sch = (scale_k / 31) as usize;
        let scl = (scale_k % 31) as u32;
        kprod.sub(kk, &mut big_f, &mut big_g, fglen, &k, sch, scl);

        // Expected size of (F, G) now; drop a word when it is no longer needed.
        let new_maxbl = scale_k + maxbl_fg + 10;
        if new_maxbl < maxbl_fg_big {
            maxbl_fg_big = new_maxbl;
            if fglen as i32 * 31 >= maxbl_fg_big + 31 {
                fglen -= 1;
            }
        }
        if scale_k <= 0 {
            break;
        }
        scale_k = (scale_k - 25).max(0);
    }

    // Sign-extend if the working length fell below slen; output slen words.
    if fglen < slen {
        for x in [&mut big_f, &mut big_g] {
            for i in 0..n {
                let sw = (x[(fglen - 1) * n + i] >> 30).wrapping_neg() >> 1;
                for v in fglen..slen {
                    x[v * n + i] = sw;
                }
            }
        }
    }
    big_f.truncate(slen * n);
    big_g.truncate(slen * n);
    Some((big_f, big_g))
}

/// 2^-dc exactly, by the reference's square-and-multiply on 1/2 (or 2 if dc < 0).
fn pow2_neg(dc: i32) -> Fpr {
    let (mut dc, mut pt) = if dc < 0 {
        (-dc, fpr::TWO)
    } else {
        (dc, fpr::ONEHALF)
    };
    let mut pdc = fpr::ONE;
    while dc != 0 {
        if dc & 1 != 0 {
            pdc = pdc.mul(pt);
        }
        dc >>= 1;
        pt = pt.sqr();
    }
    pdc
}

/// Subtracting (k·f, k·g)·2^sc from (F, G) during the Babai loop of one level, with f
/// and g fixed. At depth <= DEPTH_INT_FG the products are computed in RNS over
/// slen + 1 primes (as the reference, including its wrap-around semantics), with the
/// NTT forms of f and g and the twiddles computed once per level. Deeper, the exact
/// product is computed (the reference uses an exact schoolbook product there).
enum KfProduct {
    Rns {
        logn: u32,
        tlen: usize,
        /// Per prime: f and g in NTT form, and the tables (tlen rows of n each).
        f_ntt: Buf<u32>,
        g_ntt: Buf<u32>,
        gm: Buf<u32>,
        igm: Buf<u32>,
        /// k·f and k·g in RNS, then plain (tlen rows each).
        kf: Buf<u32>,
        kg: Buf<u32>,
        tmp: Buf<u32>,
    },
    Exact {
        logn: u32,
        /// Digits per coefficient (slen rounded up to DIG_PAD).
        dlen: usize,
        /// Signed 31-bit digits of f and g (n × dlen, coefficient-major): the low words
        /// as they are, the top word sign-extended, then zeros.
        fdig: Zeroizing<Vec<i32>>,
        gdig: Zeroizing<Vec<i32>>,
        /// Column sums (2 × dlen).
        cols: Zeroizing<Vec<i64>>,
    },
    /// Exact, for n >= WIDE_MIN_N: the products are vectorised across the n outputs.
    ExactWide {
        logn: u32,
        slen: usize,
        /// Per digit j, the row (−f_0, …, −f_{n−1}, f_0, …, f_{n−1}) of digit j (so that
        /// the negacyclic wrap is a contiguous slice); likewise g.
        fext: Zeroizing<Vec<i32>>,
        gext: Zeroizing<Vec<i32>>,
        /// Column sums (slen × n each), the product words ((slen + 2) × n), scratch.
        lo: Zeroizing<Vec<i64>>,
        hi: Zeroizing<Vec<i64>>,
        prod: Buf<u32>,
        tmp: Buf<u32>,
    },
}

/// From this degree on, the exact k·f products are vectorised across coefficients.
const WIDE_MIN_N: usize = 8;

impl KfProduct {
    fn new(kk: &KeygenKernels, logn: u32, depth: u32, ft: &[u32], gt: &[u32], slen: usize) -> Self {
        let n = 1usize << logn;
        let digit = |src: &[u32], j: usize, v: usize| {
            let w = src[j * n + v];
            if j + 1 == slen {
                poly::one_to_plain(w)
            } else {
                w as i32
            }
        };
        if depth > DEPTH_INT_FG && n >= WIDE_MIN_N {
            let mut fext = Zeroizing::new(vec![0i32; slen * 2 * n]);
            let mut gext = Zeroizing::new(vec![0i32; slen * 2 * n]);
            for (ext, src) in [(&mut fext, ft), (&mut gext, gt)] {
                for j in 0..slen {
                    let row = &mut ext[j * 2 * n..(j + 1) * 2 * n];
                    for v in 0..n {
                        let d = digit(src, j, v);
                        row[v] = d.wrapping_neg();
                        row[n + v] = d;
                    }
                }
            }
            return KfProduct::ExactWide {
                logn,
                slen,
                fext,
                gext,
                lo: Zeroizing::new(vec![0i64; slen * n]),
                hi: Zeroizing::new(vec![0i64; slen * n]),
                prod: buf_u32((slen + 2) * n),
                tmp: buf_u32(2 * n),
            };
        }
        if depth > DEPTH_INT_FG {
            let dlen = slen.div_ceil(poly::DIG_PAD) * poly::DIG_PAD;
            let mut fdig = Zeroizing::new(vec![0i32; n * dlen]);
            let mut gdig = Zeroizing::new(vec![0i32; n * dlen]);
            for (dig, src) in [(&mut fdig, ft), (&mut gdig, gt)] {
                for v in 0..n {
                    for j in 0..slen {
                        let w = src[j * n + v];
                        dig[v * dlen + j] = if j + 1 == slen {
                            poly::one_to_plain(w)
                        } else {
                            w as i32
                        };
                    }
                }
            }
            return KfProduct::Exact {
                logn,
                dlen,
                fdig,
                gdig,
                cols: Zeroizing::new(vec![0i64; 2 * dlen]),
            };
        }
        let tlen = slen + 1;
        let mut f_ntt = buf_u32(tlen * n);
        let mut g_ntt = buf_u32(tlen * n);
        let mut gm = buf_u32(tlen * n);
        let mut igm = buf_u32(tlen * n);
        for u in 0..tlen {
            let sp = &PRIMES[u];
            let (gmu, igmu) = (&mut gm[u * n..(u + 1) * n], &mut igm[u * n..(u + 1) * n]);
            sp.mkgm(logn, gmu);
            sp.mkigm(logn, igmu);
            let rf = &mut f_ntt[u * n..(u + 1) * n];
            (kk.ntru.mod_small_signed_batch)(rf, ft, slen, n, sp, sp.pow2_31(slen));
            (kk.ntru.ntt)(sp, logn, rf, gmu);
            let rg = &mut g_ntt[u * n..(u + 1) * n];
            (kk.ntru.mod_small_signed_batch)(rg, gt, slen, n, sp, sp.pow2_31(slen));
            (kk.ntru.ntt)(sp, logn, rg, gmu);
        }
        KfProduct::Rns {
            logn,
            tlen,
            f_ntt,
            g_ntt,
            gm,
            igm,
            kf: buf_u32(tlen * n),
            kg: buf_u32(tlen * n),
            tmp: buf_u32(n + tlen + 2 * n),
        }
    }

    /// (F, G) -= (k·f, k·g)·2^(31·sch + scl) modulo 2^(31·fglen); F, G word-major with
    /// n words per row. k holds i32 values (as u32).
    #[allow(clippy::too_many_arguments)]
    #[allow(non_snake_case)]
    fn sub(
        &mut self,
        kk: &KeygenKernels,
        F: &mut [u32],
        G: &mut [u32],
        fglen: usize,
        k: &[u32],
        sch: usize,
        scl: u32,
    ) {
        match self {
            KfProduct::Exact {
                logn,
                dlen,
                fdig,
                gdig,
                cols,
            } => {
                let n = 1usize << *logn;
                poly::sub_mul_small_exact(kk, F, fglen, fdig, *dlen, k, n, sch, scl, cols);
                poly::sub_mul_small_exact(kk, G, fglen, gdig, *dlen, k, n, sch, scl, cols);
            }
            KfProduct::ExactWide {
                logn,
                slen,
                fext,
                gext,
                lo,
                hi,
                prod,
                tmp,
            } => {
                let n = 1usize << *logn;
                for (ext, X) in [(&**fext, &mut *F), (&**gext, &mut *G)] {
                    poly::mul_small_exact_wide(kk, prod, ext, *slen, k, n, lo, hi);
                    poly::sub_scaled_batch(kk, X, fglen, prod, *slen + 2, n, sch, scl, tmp);
                }
            }
            KfProduct::Rns {
                logn,
                tlen,
                f_ntt,
                g_ntt,
                gm,
                igm,
                kf,
                kg,
                tmp,
            } => {
                let logn = *logn;
                let n = 1usize << logn;
                let tlen = *tlen;
                let (kt, rest) = tmp.split_at_mut(n);
                for u in 0..tlen {
                    let sp = &PRIMES[u];
                    let gm = &gm[u * n..(u + 1) * n];
                    let igm = &igm[u * n..(u + 1) * n];
                    for (t, &kv) in kt.iter_mut().zip(k.iter()) {
                        *t = set_wide(kv as i32, sp.p);
                    }
                    (kk.ntru.ntt)(sp, logn, kt, gm);
                    let rf = &mut kf[u * n..(u + 1) * n];
                    let rg = &mut kg[u * n..(u + 1) * n];
                    let sf = &f_ntt[u * n..(u + 1) * n];
                    let sg = &g_ntt[u * n..(u + 1) * n];
                    for i in 0..n {
                        let km = sp.mmul(kt[i], sp.r2);
                        rf[i] = sp.mmul(km, sf[i]);
                        rg[i] = sp.mmul(km, sg[i]);
                    }
                    (kk.ntru.intt)(sp, logn, rf, igm);
                    (kk.ntru.intt)(sp, logn, rg, igm);
                }
                (kk.ntru.rebuild_crt)(kf, tlen, n, 1, true, rest);
                (kk.ntru.rebuild_crt)(kg, tlen, n, 1, true, rest);
                poly::sub_scaled_batch(kk, F, fglen, kf, tlen, n, sch, scl, rest);
                poly::sub_scaled_batch(kk, G, fglen, kg, tlen, n, sch, scl, rest);
            }
        }
    }
}

/// Depth 1 (logn_top >= 3): lifting from depth 2 and a single floating-point Babai
/// round (the unreduced values fit in 53 bits of precision). Output: F, G with one
/// word per coefficient (the rounded value as u32).
fn solve_depth1(
    kk: &KeygenKernels,
    logn_top: u32,
    f: &[i8],
    g: &[i8],
    fd: &[u32],
    gd: &[u32],
) -> Option<(Buf<u32>, Buf<u32>)> {
    let depth = 1usize;
    let n_top = 1usize << logn_top;
    let logn = logn_top - 1;
    let n = 1usize << logn;
    let slen = MAX_BL_SMALL[depth];
    let dlen = MAX_BL_SMALL[depth + 1];
    let llen = MAX_BL_LARGE[depth];

    let mut big_f = buf_u32(llen * n);
    let mut big_g = buf_u32(llen * n);
    let mut ft = buf_u32(slen * n);
    let mut gt = buf_u32(slen * n);
    {
        let mut tmp = buf_u32(3 * n_top);
        let (gm_top, rest) = tmp.split_at_mut(n_top);
        let (fx_top, rest) = rest.split_at_mut(n_top);
        let gx_top = &mut rest[..n_top];
        lift_rns(
            kk,
            logn,
            llen,
            fd,
            gd,
            dlen,
            &mut big_f,
            &mut big_g,
            |u, sp, _gm, fx, gx| {
                // f_1 modulo p from f: NTT at full degree, then the pair products.
                sp.mkgm(logn_top, gm_top);
                for i in 0..n_top {
                    fx_top[i] = modp::set(f[i] as i32, sp.p);
                    gx_top[i] = modp::set(g[i] as i32, sp.p);
                }
                (kk.ntru.ntt)(sp, logn_top, fx_top, gm_top);
                (kk.ntru.ntt)(sp, logn_top, gx_top, gm_top);
                for v in 0..n {
                    fx[v] = sp.mmul(sp.mmul(fx_top[2 * v], fx_top[2 * v + 1]), sp.r2);
                    gx[v] = sp.mmul(sp.mmul(gx_top[2 * v], gx_top[2 * v + 1]), sp.r2);
                }
                if u < slen {
                    let mut igm = buf_u32(n);
                    sp.mkigm(logn, &mut igm);
                    let rf = &mut ft[u * n..(u + 1) * n];
                    rf.copy_from_slice(fx);
                    (kk.ntru.intt)(sp, logn, rf, &igm);
                    let rg = &mut gt[u * n..(u + 1) * n];
                    rg.copy_from_slice(gx);
                    (kk.ntru.intt)(sp, logn, rg, &igm);
                }
            },
        );
    }
    {
        let mut tmp = buf_u32(llen + 2 * n);
        (kk.ntru.rebuild_crt)(&mut big_f, llen, n, 1, true, &mut tmp);
        (kk.ntru.rebuild_crt)(&mut big_g, llen, n, 1, true, &mut tmp);
        (kk.ntru.rebuild_crt)(&mut ft, slen, n, 1, true, &mut tmp);
        (kk.ntru.rebuild_crt)(&mut gt, slen, n, 1, true, &mut tmp);
    }

    let mut rt = buf_fpr(6 * n);
    let (rt1, rest) = rt.split_at_mut(n);
    let (rt2, rest) = rest.split_at_mut(n);
    let (rt3, rest) = rest.split_at_mut(n);
    let (rt4, rest) = rest.split_at_mut(n);
    let (rt5, rt6) = rest.split_at_mut(n);
    big_to_fp(kk, rt1, &big_f, llen, n, n);
    big_to_fp(kk, rt2, &big_g, llen, n, n);
    big_to_fp(kk, rt3, &ft, slen, n, n);
    big_to_fp(kk, rt4, &gt, slen, n, n);
    (kk.fft.fft)(rt1, logn);
    (kk.fft.fft)(rt2, logn);
    (kk.fft.fft)(rt3, logn);
    (kk.fft.fft)(rt4, logn);
    (kk.fft.poly_add_muladj_fft)(rt5, rt1, rt2, rt3, rt4, logn);
    (kk.fft.poly_invnorm2_fft)(rt6, rt3, rt4, logn);
    (kk.fft.poly_mul_autoadj_fft)(rt5, rt6, logn);
    (kk.fft.ifft)(rt5, logn);
    for z in rt5.iter_mut() {
        let zv = *z;
        if crate::ct::public(!Fpr::lt(zv, fpr::PTWO63M1) | !Fpr::lt(fpr::MTWO63M1, zv)) {
            return None;
        }
        *z = Fpr::of(zv.rint());
    }
    (kk.fft.fft)(rt5, logn);
    (kk.fft.poly_mul_fft)(rt3, rt5, logn);
    (kk.fft.poly_mul_fft)(rt4, rt5, logn);
    (kk.fft.poly_sub)(rt1, rt3, logn);
    (kk.fft.poly_sub)(rt2, rt4, logn);
    (kk.fft.ifft)(rt1, logn);
    (kk.fft.ifft)(rt2, logn);
    let mut out_f = buf_u32(n);
    let mut out_g = buf_u32(n);
    for i in 0..n {
        out_f[i] = rt1[i].rint() as u32;
        out_g[i] = rt2[i].rint() as u32;
    }
    Some((out_f, out_g))
}

/// Depth 0 (logn >= 3): everything fits in one 31-bit prime. Lifting, then the exact
/// numerator and denominator of the Babai coefficient modulo p, the quotient rounded
/// through the FFT, and the reduction. Output: F, G (i32 as u32, one per coefficient).
fn solve_depth0(
    kk: &KeygenKernels,
    logn: u32,
    f: &[i8],
    g: &[i8],
    fd: &[u32],
    gd: &[u32],
) -> (Buf<u32>, Buf<u32>) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let sp = &PRIMES[0];
    let p = sp.p;

    let mut t = buf_u32(10 * n);
    let (gm, rest) = t.split_at_mut(n);
    let (igm, rest) = rest.split_at_mut(n);
    let (big_f, rest) = rest.split_at_mut(n);
    let (big_g, rest) = rest.split_at_mut(n);
    let (ft, rest) = rest.split_at_mut(n);
    let (gt, rest) = rest.split_at_mut(n);
    let (fa, rest) = rest.split_at_mut(n);
    let (ga, rest) = rest.split_at_mut(n);
    let (num, rest) = rest.split_at_mut(n);
    let den = &mut rest[..n];
    sp.mkgm(logn, gm);
    sp.mkigm(logn, igm);

    // F', G' in NTT form (degree n/2).
    let (fp, gp) = num.split_at_mut(hn);
    for v in 0..hn {
        fp[v] = set_wide(poly::one_to_plain(fd[v]), p);
        gp[v] = set_wide(poly::one_to_plain(gd[v]), p);
    }
    (kk.ntru.ntt)(sp, logn - 1, fp, gm);
    (kk.ntru.ntt)(sp, logn - 1, gp, gm);
    for i in 0..n {
        ft[i] = modp::set(f[i] as i32, p);
        gt[i] = modp::set(g[i] as i32, p);
    }
    (kk.ntru.ntt)(sp, logn, ft, gm);
    (kk.ntru.ntt)(sp, logn, gt, gm);
    // Unreduced F, G in NTT form.
    for v in 0..hn {
        let m_f = sp.mmul(fp[v], sp.r2);
        let m_g = sp.mmul(gp[v], sp.r2);
        big_f[2 * v] = sp.mmul(gt[2 * v + 1], m_f);
        big_f[2 * v + 1] = sp.mmul(gt[2 * v], m_f);
        big_g[2 * v] = sp.mmul(ft[2 * v + 1], m_g);
        big_g[2 * v + 1] = sp.mmul(ft[2 * v], m_g);
    }

    // adj f, adj g (coefficient order i -> -i) in NTT form.
    for i in 1..n {
        fa[n - i] = modp::set(-(f[i] as i32), p);
        ga[n - i] = modp::set(-(g[i] as i32), p);
    }
    fa[0] = modp::set(f[0] as i32, p);
    ga[0] = modp::set(g[0] as i32, p);
    (kk.ntru.ntt)(sp, logn, fa, gm);
    (kk.ntru.ntt)(sp, logn, ga, gm);
    // num = F·adj f + G·adj g, den = f·adj f + g·adj g.
    for i in 0..n {
        let wf = sp.mmul(fa[i], sp.r2);
        let wg = sp.mmul(ga[i], sp.r2);
        num[i] = modp::add(sp.mmul(wf, big_f[i]), sp.mmul(wg, big_g[i]), p);
        den[i] = modp::add(sp.mmul(wf, ft[i]), sp.mmul(wg, gt[i]), p);
    }
    (kk.ntru.intt)(sp, logn, num, igm);
    (kk.ntru.intt)(sp, logn, den, igm);

    // Quotient through the FFT (den is auto-adjoint: its FFT is real).
    let mut rt = buf_fpr(n + hn);
    let (rden, rnum) = rt.split_at_mut(hn);
    {
        let mut tmp = buf_fpr(n);
        for i in 0..n {
            tmp[i] = Fpr::of(modp::norm(den[i], p) as i64);
        }
        (kk.fft.fft)(&mut tmp, logn);
        rden.copy_from_slice(&tmp[..hn]);
    }
    for i in 0..n {
        rnum[i] = Fpr::of(modp::norm(num[i], p) as i64);
    }
    (kk.fft.fft)(rnum, logn);
    (kk.fft.poly_div_autoadj_fft)(rnum, rden, logn);
    (kk.fft.ifft)(rnum, logn);
    // k in NTT form; reduce (F, G) -= k·(f, g).
    let kt = num;
    for i in 0..n {
        kt[i] = set_wide(rnum[i].rint() as i32, p);
    }
    (kk.ntru.ntt)(sp, logn, kt, gm);
    for i in 0..n {
        let kw = sp.mmul(kt[i], sp.r2);
        big_f[i] = modp::sub(big_f[i], sp.mmul(kw, ft[i]), p);
        big_g[i] = modp::sub(big_g[i], sp.mmul(kw, gt[i]), p);
    }
    (kk.ntru.intt)(sp, logn, big_f, igm);
    (kk.ntru.intt)(sp, logn, big_g, igm);
    let mut out_f = buf_u32(n);
    let mut out_g = buf_u32(n);
    for i in 0..n {
        out_f[i] = modp::norm(big_f[i], p) as u32;
        out_g[i] = modp::norm(big_g[i], p) as u32;
    }
    (out_f, out_g)
}

//! NTRUSolve as fn-dsa 0.4.0 runs it (the ntrugen design, Pornin, ePrint 2023/290).
//!
//! Given f, g (degree n = 2^logn, logn 2..=10), find F, G with `f·G − g·F = q` and
//! coefficients in [−127, 127], or report failure (the key generator then draws a new
//! (f, g)). Which (f, g) fail is part of what the FN-DSA KAT vectors pin down, so this
//! follows fn-dsa step for step:
//!
//! * going down, (f, g) ← (N(f), N(g)) (field norms, degree halving) in RNS + NTT over
//!   as many 31-bit primes as the coefficients need (`SMALL_LEN[depth]` words);
//! * at the bottom (degree 1), Bezout coefficients of the two resultants, times q;
//! * going up, F ← F'(X²)·g(−X) (only F is carried; G is implied by the equation), then
//!   Babai reduction with `k = round(F/f)` on 32.32 fixed-point approximations of the top
//!   words, `reduce_bits` at a time, dropping a top word whenever it has become pure
//!   sign extension (and failing if it has not — the early detection of a reduction
//!   that did not converge);
//! * at depth 0, one exact step `k = round((F·adj f + G·adj g)/(f·adj f + g·adj g))`
//!   with numerator and denominator exact mod p0, the quotient in fixed point, and G
//!   recomputed as (q + g·F)/f mod p0.
//!
//! The integers are the same as fn-dsa's at every step; some are computed differently:
//! at degree <= 2^MAX_LOGN_PLAIN (f, g) and the unreduced F are exact big-integer
//! products ([`big`]) instead of RNS + NTT + CRT (the RNS word counts are chosen so
//! that the CRT gives the exact integers, so both routes agree); the deepest Bezout
//! coefficient comes from safegcd (unique value); the depth-0 divisions by f use one
//! batch inversion (unique quotients mod p0).
//!
//! Constant-time apart from the success/failure outcome: loops run over public sizes,
//! the scaling exponents that depend on secret magnitudes (`scale_x`) select words by
//! masking, never by indexing; signs of big integers are applied with masks; safegcd
//! runs a fixed number of divsteps for the public size.

use super::super::fxp::{self, Fxr};
use super::big;
use super::poly::{
    big_to_fixed, divrem31, max_bitlength, sub_kf_scaled_depth1, sub_scaled, sub_scaled_ntt,
};
use super::NttCtx;
use crate::falcon::ntru::modp::{self as mp, PRIMES};
use crate::falcon::ntru::zint::{bezout_v, mul_small, rebuild_crt};
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

const Q: u32 = 12289;

/// Words per coefficient of (f, g) at each depth (also of the reduced F, G).
const SMALL_LEN: [usize; 11] = [1, 1, 2, 3, 4, 8, 14, 27, 53, 104, 207];
/// Words per coefficient of the unreduced F at each depth.
const LARGE_LEN: [usize; 10] = [1, 2, 3, 6, 11, 21, 40, 78, 155, 308];
/// Top words of f used for the fixed-point approximation, per depth.
const WORD_WIN: [usize; 10] = [1, 1, 2, 2, 2, 3, 3, 4, 5, 7];
/// Bits removed from F per reduction round, per top-level logn.
const REDUCE_BITS: [u32; 11] = [10, 10, 10, 10, 10, 10, 10, 10, 10, 9, 8];
/// From this degree on, k·f is computed with the NTT (depth >= 2).
const MIN_LOGN_FGNTT: u32 = 4;
/// Up to this degree, (f, g) and the unreduced F are computed as plain big integers
/// ([`big`]) instead of in RNS + NTT.
const MAX_LOGN_PLAIN: u32 = 3;

/// The twiddle tables the solver needs for a top degree 2^logn (prime i at the largest
/// degree it is used with: 2^(logn − d) for the first depth d with `i < LARGE_LEN[d]`)
/// and the NTT kernels of backend `b`. Independent of the key: built once per key
/// generation.
pub(crate) fn ntt_ctx(logn: u32, b: crate::kernels::select::Backend) -> NttCtx {
    let mut max_logn = Vec::new();
    for (d, &len) in LARGE_LEN.iter().enumerate().take(logn as usize) {
        while max_logn.len() < len {
            max_logn.push(logn - d as u32);
        }
    }
    if max_logn.is_empty() {
        max_logn.push(logn);
    }
    NttCtx::new(
        &max_logn,
        crate::kernels::falcon::ntru::kernels(b),
        crate::kernels::falcon::fndsa::kernels(b),
    )
}

/// (f, g) at one depth: f then g, `SMALL_LEN[depth]` words per coefficient, word i of
/// coefficient j at `i·n + j`; in RNS + NTT (row i modulo prime i) or plain (signed
/// 31-bit words).
enum Fg {
    Ntt(Buf),
    Plain(Buf),
}

impl Fg {
    fn words(&self) -> &[u32] {
        match self {
            Fg::Ntt(b) | Fg::Plain(b) => b,
        }
    }
}

type Buf = Zeroizing<Vec<u32>>;

fn buf(len: usize) -> Buf {
    Zeroizing::new(vec![0u32; len])
}

/// (f, g) at every depth 0..=logn: RNS + NTT over `SMALL_LEN[depth]` primes while the
/// degree is above 2^MAX_LOGN_PLAIN, plain below.
fn fg_chain(logn: u32, f: &[i8], g: &[i8], tw: &NttCtx) -> Vec<Fg> {
    let n = 1usize << logn;
    let p0 = &PRIMES[0];
    let mut out = Vec::with_capacity(logn as usize + 1);
    let mut cur = buf(2 * n);
    let mut cur_fg = if logn <= MAX_LOGN_PLAIN {
        for i in 0..n {
            cur[i] = f[i] as i32 as u32 & 0x7FFF_FFFF;
            cur[n + i] = g[i] as i32 as u32 & 0x7FFF_FFFF;
        }
        Fg::Plain(cur)
    } else {
        let (ft, gt) = cur.split_at_mut(n);
        for i in 0..n {
            ft[i] = mp::set(f[i] as i32, p0.p);
            gt[i] = mp::set(g[i] as i32, p0.p);
        }
        tw.ntt(0, logn, ft);
        tw.ntt(0, logn, gt);
        Fg::Ntt(cur)
    };
    for depth in 0..logn {
        let next = match &cur_fg {
            Fg::Ntt(src) => {
                let nx = fg_step(logn, depth, src, tw);
                if logn - depth - 1 <= MAX_LOGN_PLAIN {
                    Fg::Plain(ntt_to_plain(logn - depth - 1, depth + 1, nx, tw))
                } else {
                    Fg::Ntt(nx)
                }
            }
            Fg::Plain(src) => Fg::Plain(plain_step(logn - depth, depth, src)),
        };
        out.push(cur_fg);
        cur_fg = next;
    }
    out.push(cur_fg);
    out
}

/// (f, g) at `depth` (degree 2^logn) from RNS + NTT to plain.
fn ntt_to_plain(logn: u32, depth: u32, mut fg: Buf, tw: &NttCtx) -> Buf {
    let n = 1usize << logn;
    let slen = SMALL_LEN[depth as usize];
    for i in 0..slen {
        tw.intt(i, logn, &mut fg[i * n..(i + 1) * n]);
        tw.intt(i, logn, &mut fg[(slen + i) * n..(slen + i + 1) * n]);
    }
    let mut tmp = buf(slen);
    tw.rebuild_crt(&mut fg, slen, n, 2, true, &mut tmp);
    fg
}

/// One step down on plain (f, g) of degree 2^logn at `depth`: (N(f), N(g)).
fn plain_step(logn: u32, depth: u32, src: &[u32]) -> Buf {
    let n = 1usize << logn;
    let hn = n >> 1;
    let slen = SMALL_LEN[depth as usize];
    let tlen = SMALL_LEN[depth as usize + 1];
    let mut dst = buf(2 * tlen * hn);
    let (fd, gd) = dst.split_at_mut(tlen * hn);
    big::poly_norm(fd, &src[..slen * n], logn, slen, tlen);
    big::poly_norm(gd, &src[slen * n..2 * slen * n], logn, slen, tlen);
    dst
}

/// One step down: from (f, g) at `depth` (RNS + NTT, slen words) to (N(f), N(g)) at
/// depth + 1 (tlen words).
fn fg_step(logn_top: u32, depth: u32, src: &[u32], tw: &NttCtx) -> Buf {
    let logn = logn_top - depth;
    let n = 1usize << logn;
    let hn = n >> 1;
    let slen = SMALL_LEN[depth as usize];
    let tlen = SMALL_LEN[depth as usize + 1];
    let mut dst = buf(2 * tlen * hn);
    let mut fgs = Zeroizing::new(src[..2 * slen * n].to_vec());
    {
        let (fd, gd) = dst.split_at_mut(tlen * hn);
        let (fs, gs) = fgs.split_at_mut(slen * n);
        // Primes already present: N(f)(w²) = f(w)·f(−w), then back to RNS.
        for i in 0..slen {
            let sp = &PRIMES[i];
            let fsi = &mut fs[i * n..(i + 1) * n];
            let gsi = &mut gs[i * n..(i + 1) * n];
            for j in 0..hn {
                fd[i * hn + j] = sp.mmul(sp.mmul(fsi[2 * j], fsi[2 * j + 1]), sp.r2);
                gd[i * hn + j] = sp.mmul(sp.mmul(gsi[2 * j], gsi[2 * j + 1]), sp.r2);
            }
            tw.intt(i, logn, fsi);
            tw.intt(i, logn, gsi);
        }
    }
    if tlen > slen {
        // More primes: rebuild (f, g) as plain integers and reduce them modulo the new
        // primes.
        let mut tmp = buf(slen);
        tw.rebuild_crt(&mut fgs, slen, n, 2, true, &mut tmp);
        let (fd, gd) = dst.split_at_mut(tlen * hn);
        let (fs, gs) = fgs.split_at(slen * n);
        let mut t2 = buf(n);
        for i in slen..tlen {
            let sp = &PRIMES[i];
            for (src, out) in [(fs, &mut *fd), (gs, &mut *gd)] {
                tw.mod_small_signed_batch(&mut t2, src, slen, n, i);
                tw.ntt(i, logn, &mut t2);
                for j in 0..hn {
                    out[i * hn + j] = sp.mmul(sp.mmul(t2[2 * j], t2[2 * j + 1]), sp.r2);
                }
            }
        }
    }
    dst
}

/// Deepest level (degree 1): F with `Res(f)·G − Res(g)·F = q`, `SMALL_LEN[logn]` words
/// (plain). None if the resultants are not coprime or the result overflows. Only F is
/// computed (G follows from the equation and is never used).
fn solve_deepest(logn: u32, chain: &[Fg]) -> Option<Buf> {
    let slen = SMALL_LEN[logn as usize];
    let fg = match &chain[logn as usize] {
        Fg::Plain(b) => Zeroizing::new(b[..2 * slen].to_vec()),
        Fg::Ntt(b) => {
            // Degree 1: the NTT is the identity.
            let mut fg = Zeroizing::new(b[..2 * slen].to_vec());
            let mut tmp = buf(slen);
            rebuild_crt(&mut fg, slen, 1, 2, false, &mut tmp);
            fg
        }
    };
    let (fp, gp) = fg.split_at(slen);
    let mut cf = buf(slen);
    // fp·G − gp·F = 1 (v = F); the exact-q case (gcd = q) is rejected too.
    // Solver failures reject (f, g) (public: the pair is discarded).
    if crate::ct::public(bezout_v(&mut cf, fp, gp) != u32::MAX) {
        return None;
    }
    if crate::ct::public(mul_small(&mut cf, Q) != 0) {
        return None;
    }
    Some(cf)
}

/// One level up (depth >= 1): from F' of the level below (`SMALL_LEN[depth + 1]` words
/// per coefficient, n/2 coefficients, plain) to the reduced F of this level
/// (`SMALL_LEN[depth]` words, n coefficients, plain).
#[allow(non_snake_case)]
fn solve_intermediate(
    logn_top: u32,
    f: &[i8],
    depth: u32,
    chain: &[Fg],
    fd: &[u32],
    tw: &NttCtx,
) -> Option<Buf> {
    let logn = logn_top - depth;
    let n = 1usize << logn;
    let hn = n >> 1;
    let slen = SMALL_LEN[depth as usize];
    let llen = LARGE_LEN[depth as usize];
    let tlen = SMALL_LEN[depth as usize + 1];
    let use_sub_ntt = depth > 1 && logn >= MIN_LOGN_FGNTT;
    let slen_adj = if use_sub_ntt { slen + 1 } else { slen };

    // (f, g) of this level; ft gets one spare row for the NTT variant.
    let mut ft = buf(slen_adj * n);
    let mut gt = buf(slen * n);
    let src = chain[depth as usize].words();
    ft[..slen * n].copy_from_slice(&src[..slen * n]);
    gt.copy_from_slice(&src[slen * n..2 * slen * n]);

    // Unreduced F = F'(X²)·g(−X), then (f, g) and F plain.
    let mut Ft = buf(llen * n);
    if let Fg::Plain(_) = chain[depth as usize] {
        big::lift(&mut Ft, fd, &gt, logn, tlen, slen, llen);
    } else {
        // Modulo llen primes: row i holds F' mod p_i in its upper half first, then F.
        for i in 0..llen {
            tw.mod_small_signed_batch(&mut Ft[i * n + hn..(i + 1) * n], fd, tlen, hn, i);
        }
        let mut gx = buf(n);
        let mut tmp = buf(slen.max(llen));
        for i in 0..llen {
            let sp = &PRIMES[i];
            if i < slen {
                gx.copy_from_slice(&gt[i * n..(i + 1) * n]);
                tw.intt(i, logn, &mut ft[i * n..(i + 1) * n]);
                tw.intt(i, logn, &mut gt[i * n..(i + 1) * n]);
            } else {
                tw.mod_small_signed_batch(&mut gx, &gt, slen, n, i);
                tw.ntt(i, logn, &mut gx);
            }
            // F' to the NTT domain (degree n/2: the first n/2 twiddles of gm serve).
            let row = &mut Ft[i * n..(i + 1) * n];
            tw.ntt(i, logn - 1, &mut row[hn..]);
            for j in 0..hn {
                let (ga, gb) = (gx[2 * j], gx[2 * j + 1]);
                let m_fp = sp.mmul(row[hn + j], sp.r2);
                row[2 * j] = sp.mmul(gb, m_fp);
                row[2 * j + 1] = sp.mmul(ga, m_fp);
            }
            tw.intt(i, logn, row);
            if i + 1 == slen {
                // (f, g) are now in RNS: make them plain.
                let mut fg = Zeroizing::new([&ft[..slen * n], &gt[..]].concat());
                tw.rebuild_crt(&mut fg, slen, n, 2, true, &mut tmp);
                ft[..slen * n].copy_from_slice(&fg[..slen * n]);
                gt.copy_from_slice(&fg[slen * n..]);
            }
        }
        tw.rebuild_crt(&mut Ft, llen, n, 1, true, &mut tmp);
    }

    // Babai reduction of F against f, with k = round(F/f) on fixed-point approximations.
    // f's top `rlen` words are scaled by 2^-(scale_fg + scale_x); scale_x (secret) is its
    // bit length beyond scale_fg, and scale_t keeps f·adj(f) below 2^31.
    let rlen = WORD_WIN[depth as usize];
    let blen = slen - rlen;
    let scale_fg = 31 * blen as u32;
    let mut scale_FG = 31 * llen as u32;
    let scale_x = max_bitlength(logn, &ft[n * blen..], rlen);
    let scale_t = {
        let t = 15 - logn;
        t ^ ((t ^ scale_x) & mp::tbmask(scale_x.wrapping_sub(t)))
    };
    let mut rt3 = Zeroizing::new(vec![Fxr::ZERO; n]);
    big_to_fixed(logn, &ft[n * blen..], rlen, scale_x - scale_t, &mut rt3);
    fxp::fft(logn, &mut rt3);
    fxp::inv_mul2e_fft(logn, &mut rt3, scale_t, tw.fxk());

    if use_sub_ntt {
        // f in RNS + NTT over slen + 1 primes.
        let mut tn = buf(slen_adj * n);
        for i in 0..slen_adj {
            tw.mod_small_signed_batch(&mut tn[i * n..(i + 1) * n], &ft, slen, n, i);
            tw.ntt(i, logn, &mut tn[i * n..(i + 1) * n]);
        }
        ft.copy_from_slice(&tn);
    }

    let mut k = buf(n);
    let mut t2 = buf(n * (slen + 5).max(3));
    let mut rt1 = Zeroizing::new(vec![Fxr::ZERO; n]);
    let mut FGlen = llen;
    let reduce_bits = REDUCE_BITS[logn_top as usize];
    loop {
        let (sch, coff) = divrem31(scale_FG);
        let clen = sch as usize;
        big_to_fixed(
            logn,
            &Ft[clen * n..],
            FGlen - clen,
            scale_x + coff,
            &mut rt1,
        );
        fxp::fft(logn, &mut rt1);
        fxp::mul_fft(logn, &mut rt1, &rt3);
        fxp::ifft(logn, &mut rt1);
        for i in 0..n {
            k[i] = rt1[i].round() as u32;
        }
        // k carries scale 2^(scale_FG − scale_fg) (public).
        let scale_k = scale_FG - scale_fg;
        if depth == 1 {
            sub_kf_scaled_depth1(logn_top, &mut Ft, FGlen, &mut k, scale_k, f, tw, &mut t2);
        } else if use_sub_ntt {
            sub_scaled_ntt(logn, &mut Ft, FGlen, &ft, slen, &k, scale_k, tw, &mut t2);
        } else {
            sub_scaled(logn, &mut Ft, FGlen, &ft, slen, &k, scale_k);
        }
        if scale_FG <= scale_fg {
            break;
        }
        if scale_FG <= scale_fg + reduce_bits {
            scale_FG = scale_fg;
        } else {
            scale_FG -= reduce_bits;
        }
        while FGlen > slen && 31 * (FGlen - slen) as u32 > scale_FG - scale_fg + 30 {
            // Drop the top word; it must be a pure sign extension of the next one.
            FGlen -= 1;
            let off = (FGlen - 1) << logn;
            for i in 0..n {
                let sw = (Ft[off + i] >> 30).wrapping_neg() >> 1;
                if crate::ct::public(Ft[off + i + n] != sw) {
                    return None; // a solver failure: (f, g) is discarded
                }
            }
        }
    }
    Ft.truncate(slen * n);
    Some(Ft)
}

/// Depth 0: from F' (one word per coefficient, n/2 coefficients) to the final (F, G),
/// signed 32-bit values (the caller checks the [−127, 127] range). None if f is not
/// invertible modulo p0.
#[allow(non_snake_case)]
fn solve_depth0(logn: u32, f: &[i8], g: &[i8], fd: &[u32], tw: &NttCtx) -> Option<(Buf, Buf)> {
    let n = 1usize << logn;
    let hn = n >> 1;
    let sp = &PRIMES[0];
    let p = sp.p;

    // F' (31-bit signed words) to RNS + NTT (degree n/2).
    let mut t3 = buf(n);
    for j in 0..hn {
        let x = fd[j];
        t3[j] = mp::set((x | ((x & 0x4000_0000) << 1)) as i32, p);
    }
    tw.ntt(0, logn - 1, &mut t3[..hn]);

    // Unreduced F = F'(X²)·g(−X), RNS + NTT.
    let mut t2 = buf(n);
    for i in 0..n {
        t2[i] = mp::set(g[i] as i32, p);
    }
    tw.ntt(0, logn, &mut t2);
    let mut t1 = buf(n);
    for i in 0..hn {
        let (ga, gb) = (t2[2 * i], t2[2 * i + 1]);
        let m_f = sp.mmul(t3[i], sp.r2);
        t1[2 * i] = sp.mmul(gb, m_f);
        t1[2 * i + 1] = sp.mmul(ga, m_f);
    }

    // f in RNS + NTT; it must be invertible mod p0.
    for i in 0..n {
        t3[i] = mp::set(f[i] as i32, p);
    }
    tw.ntt(0, logn, &mut t3);
    // Not invertible: a solver failure, (f, g) is discarded (public).
    let zero = t3.iter().fold(0u32, |acc, &v| acc | (v == 0) as u32);
    if crate::ct::public(zero != 0) {
        return None;
    }
    // R/f at every point (R = 2^32): then x/f = mmul(x, R/f), as `mp::div` gives it.
    let mut finv = buf(n);
    sp.batch_inv_mont(&t3, &mut finv);

    // Numerator F·adj(f) + G·adj(g) (into t2) and denominator f·adj(f) + g·adj(g) (into
    // t3), with G = (q + g·F)/f; index n−1−i holds the conjugate point of index i.
    for i in 0..hn {
        let (tf0, tf1) = (t3[i], t3[n - 1 - i]);
        let (tg0, tg1) = (t2[i], t2[n - 1 - i]);
        let (tF0, tF1) = (t1[i], t1[n - 1 - i]);
        let mf0 = sp.mmul(tf0, sp.r2);
        let mf1 = sp.mmul(tf1, sp.r2);
        let mg0 = sp.mmul(tg0, sp.r2);
        let mg1 = sp.mmul(tg1, sp.r2);
        let tG0 = sp.mmul(mp::add(Q, sp.mmul(mg0, tF0), p), finv[i]);
        let tG1 = sp.mmul(mp::add(Q, sp.mmul(mg1, tF1), p), finv[n - 1 - i]);
        let kn0 = mp::add(sp.mmul(mf1, tF0), sp.mmul(mg1, tG0), p);
        let kn1 = mp::add(sp.mmul(mf0, tF1), sp.mmul(mg0, tG1), p);
        let kd = mp::add(sp.mmul(mf0, tf1), sp.mmul(mg0, tg1), p);
        t2[i] = kn0;
        t2[n - 1 - i] = kn1;
        t3[i] = kd;
        t3[n - 1 - i] = kd;
    }
    tw.intt(0, logn, &mut t2);
    tw.intt(0, logn, &mut t3);

    // k = round(num/den) in 32.32 fixed point, both scaled down by 2^10.
    const SCALE: u32 = 22;
    let mut den = Zeroizing::new(vec![Fxr::ZERO; n]);
    let mut num = Zeroizing::new(vec![Fxr::ZERO; n]);
    for i in 0..n {
        den[i] = Fxr(((mp::norm(t3[i], p) as i64) << SCALE) as u64);
        num[i] = Fxr(((mp::norm(t2[i], p) as i64) << SCALE) as u64);
    }
    fxp::fft(logn, &mut den);
    fxp::fft(logn, &mut num);
    fxp::div_selfadj_fft(logn, &mut num, &den[..hn], tw.fxk());
    fxp::ifft(logn, &mut num);
    for i in 0..n {
        t2[i] = mp::set(num[i].round(), p);
    }

    // F ← F − k·f, G ← (q + g·F)/f, back to plain signed values.
    let mut t4 = buf(n);
    for i in 0..n {
        t3[i] = mp::set(f[i] as i32, p);
        t4[i] = mp::set(g[i] as i32, p);
    }
    tw.ntt(0, logn, &mut t2);
    tw.ntt(0, logn, &mut t3);
    tw.ntt(0, logn, &mut t4);
    for i in 0..n {
        let mf = sp.mmul(t3[i], sp.r2);
        let mg = sp.mmul(t4[i], sp.r2);
        let tF = mp::sub(t1[i], sp.mmul(mf, t2[i]), p);
        let tG = sp.mmul(mp::add(Q, sp.mmul(mg, tF), p), finv[i]);
        t1[i] = tF;
        t2[i] = tG;
    }
    tw.intt(0, logn, &mut t1);
    tw.intt(0, logn, &mut t2);
    for i in 0..n {
        t1[i] = mp::norm(t1[i], p) as u32;
        t2[i] = mp::norm(t2[i], p) as u32;
    }
    Some((t1, t2))
}

/// NTRUSolve for (f, g) of degree 2^logn (1 <= logn <= 10). On success writes F and G
/// (coefficients in [−127, 127], `f·G − g·F = q`) and returns true. `tw` must be
/// [`ntt_ctx`]`(logn, backend)`.
#[allow(non_snake_case)]
pub(crate) fn solve_ntru(
    logn: u32,
    f: &[i8],
    g: &[i8],
    F: &mut [i8],
    G: &mut [i8],
    tw: &NttCtx,
) -> bool {
    let n = 1usize << logn;
    let chain = fg_chain(logn, f, g, tw);
    let Some(mut fd) = solve_deepest(logn, &chain) else {
        return false;
    };
    for depth in (1..logn).rev() {
        match solve_intermediate(logn, f, depth, &chain, &fd, tw) {
            Some(x) => fd = x,
            None => return false,
        }
    }
    let Some((cf, cg)) = solve_depth0(logn, f, g, &fd, tw) else {
        return false;
    };
    // Range check (rejection reveals only that this (f, g) is discarded).
    let out = cf.iter().chain(cg.iter()).fold(0u32, |acc, &z| {
        acc | ((z as i32).wrapping_add(127) as u32 > 254) as u32
    });
    if crate::ct::public(out != 0) {
        return false;
    }
    for i in 0..n {
        F[i] = cf[i] as i32 as i8;
        G[i] = cg[i] as i32 as i8;
    }
    true
}

//! SamplerZ of FN-DSA (draft, fn-dsa 0.4.0): a discrete Gaussian over the integers with
//! centre μ and width σ (given as 1/σ), drawn from a [`ShakeStream`]. DRAFT.
//!
//! Same algorithm as round 3 (bimodal half-Gaussian base sample, rejection with
//! `BerExp(x, σ_min/σ)`), but a different base sampler: each draw reads a little-endian
//! u64 then a little-endian u16; bit 0 of the u64 is the bimodal bit, the other 79 bits
//! are compared with a 79-bit cumulative table (round 3: 72 bits against a 72-bit table,
//! plus a separate byte for the bimodal bit). This consumption pattern is what makes the
//! signatures reproducible, so the shared round-3 SamplerZ kernel cannot be used.
//!
//! Constant time: the base sampler scans the whole table; BerExp compares lazily byte by
//! byte, which reveals only how many bytes were read — a function of uniformly random
//! bytes and of whether the sample was accepted (the same argument as round 3). The
//! number of rejections is independent of μ and σ by construction of `ccs = σ_min/σ`.
//!
//! With AVX2 (native `Fpr` only), [`Sampler::next_pair`] evaluates several attempts of
//! both requests at once from the bytes ahead of the read position ("speculative slots",
//! see `sampler_avx2`) and replays the serial order on the results: same outputs, same
//! bytes consumed, no leak beyond the two above.

use super::prng::ShakeStream;
use crate::kernels::falcon::fndsa::SamplerPair;
use crate::kernels::falcon::fpr::{expm_p63, Fpr};

/// `m · 2^e` for `2^52 <= m < 2^53`, as exact binary64 bits (build-time constant).
pub(super) const fn scaled(m: u64, e: i32) -> Fpr {
    let biased = (1023 + 52 + e) as u64;
    Fpr::from_bits((biased << 52) | (m & ((1u64 << 52) - 1)))
}

/// 1/(2·σ0²), σ0 = 1.8205 (base sampler width).
pub(crate) const INV_2SQRSIGMA0: Fpr = scaled(5435486223186882, -55);
/// ln 2.
pub(crate) const LOG2: Fpr = scaled(6243314768165359, -53);
/// 1/ln 2.
pub(crate) const INV_LOG2: Fpr = scaled(6497320848556798, -52);

/// 1/σ per logn (index 0 unused). fn-dsa's values, each one ulp below round 3's
/// `fpr_inv_sigma` (recomputed at full precision by fn-dsa).
pub(crate) const INV_SIGMA: [Fpr; 11] = [
    Fpr::from_bits(0),
    scaled(7961475618707097, -60),
    scaled(7851656902127320, -60),
    scaled(7746260754658859, -60),
    scaled(7595833604889141, -60),
    scaled(7453842886538220, -60),
    scaled(7319528409832599, -60),
    scaled(7192222552237877, -60),
    scaled(7071336252758509, -60),
    scaled(6956347512113097, -60),
    scaled(6846791885593314, -60),
];

/// σ_min per logn (index 0 unused); identical to round 3.
pub(crate) const SIGMA_MIN: [Fpr; 11] = [
    Fpr::from_bits(0),
    scaled(5028307297130123, -52),
    scaled(5098636688852518, -52),
    scaled(5168009084304506, -52),
    scaled(5270355833453349, -52),
    scaled(5370752584786614, -52),
    scaled(5469306724145091, -52),
    scaled(5566116128735780, -52),
    scaled(5661270305715104, -52),
    scaled(5754851361258101, -52),
    scaled(5846934829975396, -52),
];

/// Cumulative distribution of the half-Gaussian of width σ0 (Table 5 of the Falcon
/// specification) at 79-bit precision: entry k is `2^79 · P(z > k)` split into limbs of
/// 31, 24 and 24 bits (high to low).
pub(crate) const GAUSS0: [[u32; 3]; 18] = [
    [1375468055, 6936092, 9176346],
    [711562636, 1023934, 15582455],
    [289335016, 4826132, 14746371],
    [90749601, 12313548, 10843417],
    [21676598, 5732767, 9419414],
    [3908963, 11171514, 6206010],
    [529006, 11146683, 11891888],
    [53503, 15610582, 11661180],
    [4032, 7095613, 11671091],
    [225, 16701698, 407118],
    [9, 6787688, 1638204],
    [0, 4870085, 8687822],
    [0, 111406, 13946073],
    [0, 1887, 12017202],
    [0, 23, 11452285],
    [0, 0, 3689579],
    [0, 0, 25354],
    [0, 0, 129],
];

/// [`GAUSS0`] as 79-bit integers.
const GAUSS0_79: [u128; 18] = {
    let mut t = [0u128; 18];
    let mut i = 0;
    while i < 18 {
        t[i] = (GAUSS0[i][0] as u128) << 48 | (GAUSS0[i][1] as u128) << 24 | GAUSS0[i][2] as u128;
        i += 1;
    }
    t
};

/// The sampler state: the attempt's random stream and the scheme degree (which selects
/// σ_min).
pub struct Sampler {
    pub(crate) rng: ShakeStream,
    pub(crate) logn: u32,
    /// The backend's vectorised pair sampler, if it has one (AVX2, native `Fpr`).
    pair: Option<SamplerPair>,
}

impl Sampler {
    /// A sampler on `rng`; `backend` selects the speculative AVX2 path for
    /// [`Sampler::next_pair`] when it is AVX2 or AVX-512 and available (and `Fpr` is
    /// native).
    pub fn new(rng: ShakeStream, logn: u32, backend: crate::kernels::select::Backend) -> Self {
        let pair = crate::kernels::falcon::fndsa::kernels(backend).sampler_pair;
        Sampler { rng, logn, pair }
    }

    /// Two samples with the same width (`1/isigma`) and centres `mu0`, then `mu1`:
    /// exactly `(self.next(mu0, isigma), self.next(mu1, isigma))`.
    #[inline]
    pub fn next_pair(&mut self, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> (i32, i32) {
        if let Some(pair) = self.pair {
            return pair(self, mu0, mu1, isigma);
        }
        let a = self.next(mu0, isigma);
        let b = self.next(mu1, isigma);
        (a, b)
    }

    /// 1/σ for the leaves of this degree.
    #[inline]
    pub fn inv_sigma(&self) -> Fpr {
        INV_SIGMA[self.logn as usize]
    }

    /// One base sample: (z0 ≥ 0, b ∈ {0, 1}). Reads 10 bytes.
    #[inline]
    fn gaussian0(&mut self) -> (i32, i32) {
        let lo = self.rng.next_u64();
        let hi = self.rng.next_u16() as u128;
        let b = (lo & 1) as i32;
        // The 79-bit value v = (hi:lo) >> 1; z = number of table entries above v, from
        // the borrow of v − T[k] (no branch, every entry visited).
        let v = ((hi << 64) | lo as u128) >> 1;
        let mut z = 0i32;
        for &t in &GAUSS0_79 {
            z += (v.wrapping_sub(t) >> 127) as i32;
        }
        (z, b)
    }

    /// A bit that is 1 with probability `ccs · exp(-x)` (x ≥ 0, 0 < ccs ≤ 1).
    #[inline]
    pub(super) fn ber_exp(&mut self, x: Fpr, ccs: Fpr) -> bool {
        // x = s·ln2 + r, 0 <= r < ln2; s saturated at 63 (bias < 2^-64, as in round 3).
        // x is secret and small (0 <= x·1/ln2 < 2^63): the branch-free truncation.
        let s = x.mul(INV_LOG2).trunc_small();
        let r = x.sub(Fpr::of(s).mul(LOG2));
        let sw = s as u32;
        let s = (sw | (63u32.wrapping_sub(sw) >> 16)) & 63;
        // 2^64 · ccs · exp(-x), minus one so that it fits 64 bits.
        let z = (expm_p63(r, ccs) << 1).wrapping_sub(1) >> s;
        // Compare with a uniform 64-bit value, most significant byte first, reading only
        // as many bytes as needed.
        for i in 0..8 {
            let w = self.rng.next_u8();
            let bz = (z >> (56 - 8 * i)) as u8;
            // Where the comparison stops: the documented leak (BerExp bytes read).
            if crate::ct::public(w != bz) {
                return w < bz;
            }
        }
        false
    }

    /// One sample of the discrete Gaussian with centre `mu` and width `1/isigma`
    /// (σ_min ≤ σ ≤ 1.8205).
    pub fn next(&mut self, mu: Fpr, isigma: Fpr) -> i32 {
        let s = mu.floor();
        let r = mu.sub(Fpr::of(s));
        let dss = isigma.sqr().half();
        let ccs = isigma.mul(SIGMA_MIN[self.logn as usize]);
        loop {
            let (z0, b) = self.gaussian0();
            // b = 1: z = z0 + 1 (around 1); b = 0: z = -z0 (around 0).
            let z = b + ((b << 1) - 1) * z0;
            let x = Fpr::of(z as i64).sub(r).sqr().mul(dss);
            let x = x.sub(Fpr::of((z0 * z0) as i64).mul(INV_2SQRSIGMA0));
            // The accept verdict: the attempt count is the documented leak.
            if crate::ct::public(self.ber_exp(x, ccs)) {
                return s as i32 + z;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_round3_where_they_should() {
        // Bit patterns of the round-3 reference constants.
        assert_eq!(INV_2SQRSIGMA0.to_bits(), 4594603506513722306);
        assert_eq!(LOG2.to_bits(), 4604418534313441775);
        assert_eq!(INV_LOG2.to_bits(), 4609176140021203710);
        assert_eq!(SIGMA_MIN[9].to_bits(), 4608433670533905013);
        // 1/σ: one ulp below round 3.
        assert_eq!(INV_SIGMA[9].to_bits(), 4573606369665796042 - 1);
        assert_eq!(INV_SIGMA[10].to_bits(), 4573496814039276259 - 1);
    }

    #[test]
    fn sampler_mean_and_width() {
        let mut s = Sampler::new(
            ShakeStream::new(&[b"test"]),
            9,
            crate::kernels::select::Backend::Portable,
        );
        let mu = Fpr::scaled(3 * 1024 + 300, -10); // ~3.29
        let sigma = 1.5f64;
        let isig = Fpr::of(1).div(Fpr::scaled(3, -1));
        let n = 20000;
        let (mut sum, mut sq) = (0f64, 0f64);
        for _ in 0..n {
            let z = s.next(mu, isig) as f64;
            sum += z;
            sq += z * z;
        }
        let mean = sum / n as f64;
        let var = sq / n as f64 - mean * mean;
        assert!((mean - 3.293).abs() < 0.05, "mean {mean}");
        assert!((var.sqrt() - sigma).abs() < 0.05, "sd {}", var.sqrt());
    }
}

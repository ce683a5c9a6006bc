//! The lane-permute index tables of the AVX-512 primitives, for both lane widths (32 u16
//! lanes: `vpermw` / `vpermt2w`; 16 i32 lanes: `vpermd` / `vpermt2d`): one definition,
//! instantiated per lane type by [`permute_tables!`].

/// Defines, for registers of `$lanes` lanes of `$t` and chunk sizes s = 2^k,
/// k < `$logs` (= log2 `$lanes`):
/// * `SPREAD[k]`: lane `l` takes `l / s` (spreads entry e over lanes `e·s..(e+1)·s`);
/// * `ZIP[k]`: the two-source indices (into the 2·`$lanes` lanes of a pair) of
///   [even chunks, odd chunks, zip-a, zip-b]: unzip takes the even or the odd chunks of
///   s lanes of `(a, b)`, zip is its inverse (lanes of `a`, then of `b`, from `(e, o)`).
macro_rules! permute_tables {
    ($t:ty, $lanes:expr, $logs:expr) => {
        /// `l / s` in lane `l`, for s = 2^k.
        static SPREAD: [[$t; $lanes]; $logs] = {
            let mut t = [[0 as $t; $lanes]; $logs];
            let mut k = 0;
            while k < $logs {
                let mut l = 0;
                while l < $lanes {
                    t[k][l] = (l >> k) as $t;
                    l += 1;
                }
                k += 1;
            }
            t
        };

        /// [even, odd, zip-a, zip-b] two-source index vectors for s = 2^k.
        static ZIP: [[[$t; $lanes]; 4]; $logs] = {
            let mut t = [[[0 as $t; $lanes]; 4]; $logs];
            let mut k = 0;
            while k < $logs {
                let s = 1usize << k;
                let mut l = 0;
                while l < $lanes {
                    t[k][0][l] = ((2 * (l / s)) * s + l % s) as $t;
                    t[k][1][l] = ((2 * (l / s) + 1) * s + l % s) as $t;
                    let mut hi = 0;
                    while hi < 2 {
                        let e = l + $lanes * hi;
                        let c = e / s;
                        t[k][2 + hi][l] = ((c % 2) * $lanes + (c / 2) * s + e % s) as $t;
                        hi += 1;
                    }
                    l += 1;
                }
                k += 1;
            }
            t
        };

        /// A table row as an index vector.
        #[inline(always)]
        unsafe fn idx(t: &[$t; $lanes]) -> __m512i {
            // SAFETY: 64 readable bytes.
            unsafe { _mm512_loadu_si512(t.as_ptr() as *const __m512i) }
        }
    };
}
pub(super) use permute_tables;

//! Kernels alone, per backend: a table of (alg, op, backend, unit).
//!
//! * ML-DSA: `ntt`, `intt` on one polynomial per call, and Falcon-512 / Falcon-1024 `ntt`,
//!   `intt` mod 12289: every NTT variant (`pqsig::kernels::ntt`) on every backend, the
//!   variant in the row's `variant` field;
//! * Falcon (alg `Falcon-512` / `Falcon-1024`): `fft`, `ifft` on one polynomial of the
//!   degree per call, and `samplerz`, the kernel side of SamplerZ (base sampler + BerExp)
//!   on requests of realistic centre and σ, per request.
//! * SNOVA (alg `SNOVA l=4` / `SNOVA l=5`): the GF(16) kernels of
//!   `pqsig::kernels::gf16` with the shapes of the Round-3 sets of that l — `gemm_acc`
//!   (the scheme's three wide products: keygen's T12ᵀ·P11, signing's Wᵀ·P11,
//!   verification's Wᵀ·P; per call), `mat_mul_batch` (l×l·l×r and signing's l×r·r×ol,
//!   per product), `solve` (the o·l·r system, per call); and per set (alg `SNOVA_…`) the
//!   public-seed expansion `xof::shake128_ctr` / `xof::aes128_ctr` at the set's
//!   NUM_GEN_PUB_BYTES (per expansion). Fewer samples (`SNOVA_PLAN`).
//!
//! To add a kernel, push one [`KernelCase`] per available
//! backend in [`cases`]: for an in-place kernel over slices [`SliceKernel`] does
//! everything; for other data write a small [`Unit`] that refreshes its inputs in
//! `before` (untimed) and makes `ops_per_sample` calls in `run`. Cases with the same
//! (alg, op) are measured interleaved with each other.

use crate::measure::Unit;
use crate::peers::fixture::SplitMix;
use pqsig::kernels::falcon::fft as kfft;
use pqsig::kernels::falcon::fpr::{self, Fpr};
use pqsig::kernels::falcon::samplerz::{self as ksz, Refill, Request, Stream, Window, WINDOW};
use pqsig::kernels::mldsa::{self as km, Poly, N, Q};
use pqsig::kernels::ntt::{self as kntt, NttVariant};
use pqsig::Backend;

/// One kernel on one backend.
pub struct KernelCase {
    /// Report name of the scheme ("ML-DSA"; "Falcon-512" / "Falcon-1024"; "SNOVA l=4",
    /// "SNOVA l=5", "SNOVA_I_S", ...).
    pub alg: &'static str,
    pub op: &'static str,
    pub backend: String,
    /// What one operation is and how samples are taken (the `note` column).
    pub note: String,
    /// Falcon: the binary64 implementation of this build.
    pub fpr: Option<&'static str>,
    /// NTT rows: the variant of `pqsig::kernels::ntt` measured (JSON field `variant`).
    pub variant: Option<&'static str>,
    /// (rounds at scale 1, samples per round) when not the defaults (SNOVA's kernels
    /// take tens of µs to ms per call).
    pub plan: Option<(f64, usize)>,
    pub unit: Box<dyn Unit>,
}

/// Calls per sample: one call is too short to time alone, so a sample times this many
/// calls (each on its own one-polynomial slice) and reports the mean per call.
pub const CALLS_PER_SAMPLE: usize = 16;

/// Every kernel case, in report order.
pub fn cases() -> Vec<KernelCase> {
    let mut v = Vec::new();
    let backends: Vec<Backend> = Backend::available().collect();
    // ML-DSA and Falcon have no NEON kernels (they run portable under `neon`): no
    // duplicate rows for them on aarch64.
    let no_neon: Vec<Backend> = backends
        .iter()
        .copied()
        .filter(|&b| b != Backend::Neon)
        .collect();
    mldsa_cases(&no_neon, &mut v);
    falcon_ntt_cases(&no_neon, &mut v);
    falcon_cases(&no_neon, &mut v);
    snova_cases(&backends, &mut v);
    v
}

/// ML-DSA `ntt` / `intt` for every NTT variant of `pqsig::kernels::ntt` on every backend
/// (radix-2 is the backend's own kernel; a variant without a SIMD kernel on a backend
/// runs its portable kernel there, which the JSON `variant` and the note say).
fn mldsa_cases(backends: &[Backend], v: &mut Vec<KernelCase>) {
    type Pick = fn(&'static km::Kernels) -> fn(&mut [Poly]);
    let ops: [(&'static str, Pick, u64); 2] =
        [("ntt", |k| k.ntt, 1), ("intt", |k| k.invntt_tomont, 2)];
    for (op, pick, seed) in ops {
        for &b in backends {
            for &var in NttVariant::ALL {
                let f = pick(kntt::mldsa_kernels(b, var));
                v.push(KernelCase {
                    alg: "ML-DSA",
                    op,
                    backend: b.name().into(),
                    note: format!(
                        "{} NTT, 1 poly/call, mean of {CALLS_PER_SAMPLE} calls/sample",
                        var.name()
                    ),
                    fpr: None,
                    variant: Some(var.name()),
                    plan: None,
                    unit: Box::new(SliceKernel::new(1, mldsa_polys(seed), f)),
                });
            }
        }
    }
}

/// Falcon `ntt` / `intt` mod 12289 (n = 512 and 1024) for every NTT variant on every
/// backend, as for ML-DSA (but on AVX2, whose own Falcon NTT is the radix-4 one, radix-2
/// is the shared SIMD body with radix-2 units).
fn falcon_ntt_cases(backends: &[Backend], v: &mut Vec<KernelCase>) {
    for (alg, logn) in [("Falcon-512", 9u32), ("Falcon-1024", 10)] {
        let n = 1usize << logn;
        for (op, seed) in [("ntt", 5u64), ("intt", 6)] {
            for &b in backends {
                for &var in NttVariant::ALL {
                    let k = kntt::falcon_kernels(b, var);
                    let f = if op == "ntt" { k.ntt } else { k.intt };
                    v.push(KernelCase {
                        alg,
                        op,
                        backend: b.name().into(),
                        note: format!(
                            "{} NTT mod 12289, 1 poly (n = {n})/call, mean of \
                             {CALLS_PER_SAMPLE} calls/sample",
                            var.name()
                        ),
                        fpr: None,
                        variant: Some(var.name()),
                        plan: None,
                        unit: Box::new(SliceKernel::new(
                            n,
                            falcon_polys(n, seed),
                            move |p: &mut [u16]| f(p, logn),
                        )),
                    });
                }
            }
        }
    }
}

fn falcon_cases(backends: &[Backend], v: &mut Vec<KernelCase>) {
    for (alg, logn) in [("Falcon-512", 9u32), ("Falcon-1024", 10)] {
        let n = 1usize << logn;
        for (op, seed) in [("fft", 3u64), ("ifft", 4)] {
            for &b in backends {
                let k = kfft::kernels(b);
                let f = if op == "fft" { k.fft } else { k.ifft };
                v.push(KernelCase {
                    alg,
                    op,
                    backend: b.name().into(),
                    note: format!("1 poly (n = {n})/call, mean of {CALLS_PER_SAMPLE} calls/sample"),
                    fpr: Some(fpr::FPR_IMPL),
                    variant: None,
                    plan: None,
                    unit: Box::new(SliceKernel::new(
                        n,
                        fft_inputs(n, seed),
                        move |p: &mut [Fpr]| f(p, logn),
                    )),
                });
            }
        }
        for &b in backends {
            let s = SamplerZ::new(b, logn);
            v.push(KernelCase {
                alg,
                op: "samplerz",
                backend: b.name().into(),
                note: format!(
                    "per request ({} per call, the signer's shape; {} per sample)",
                    SamplerZ::BATCH,
                    SamplerZ::PER_SAMPLE
                ),
                fpr: Some(fpr::FPR_IMPL),
                variant: None,
                plan: None,
                unit: Box::new(s),
            });
        }
    }
}

/// `CALLS_PER_SAMPLE` ML-DSA polynomials, coefficients uniform in (−q, q) (valid for
/// `ntt` and `invntt_tomont`).
fn mldsa_polys(seed: u64) -> Vec<Poly> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut src = vec![Poly::default(); CALLS_PER_SAMPLE];
    for p in src.iter_mut() {
        for c in p.coeffs.iter_mut().take(N) {
            // xorshift64*
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            let r = s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
            *c = (r % (2 * Q as u64 - 1)) as i32 - (Q - 1);
        }
    }
    src
}

/// `CALLS_PER_SAMPLE` polynomials of n canonical residues mod 12289 (the Falcon NTT's
/// input domain).
fn falcon_polys(n: usize, seed: u64) -> Vec<u16> {
    let mut rng = SplitMix(seed);
    (0..n * CALLS_PER_SAMPLE)
        .map(|_| (rng.next() % 12289) as u16)
        .collect()
}

/// `CALLS_PER_SAMPLE` polynomials of n values for the FFT kernels: integers in
/// [−2^11, 2^11] like the short vectors and targets Falcon transforms (for `ifft`, the
/// values are then taken as an FFT representation, which is as good an input: the
/// operation count does not depend on the values, and no value is subnormal).
fn fft_inputs(n: usize, seed: u64) -> Vec<Fpr> {
    let mut rng = SplitMix(seed);
    (0..n * CALLS_PER_SAMPLE)
        .map(|_| Fpr::of((rng.next() % 4097) as i64 - 2048))
        .collect()
}

/// An in-place kernel over slices of `len` elements: each sample makes
/// [`CALLS_PER_SAMPLE`] calls, each on its own slice of a fresh copy of the inputs (so no
/// call sees another call's output).
pub struct SliceKernel<T: Copy, F: Fn(&mut [T])> {
    f: F,
    len: usize,
    src: Vec<T>,
    work: Vec<T>,
}

impl<T: Copy, F: Fn(&mut [T])> SliceKernel<T, F> {
    pub fn new(len: usize, src: Vec<T>, f: F) -> Self {
        assert_eq!(src.len(), len * CALLS_PER_SAMPLE);
        let work = src.clone();
        SliceKernel { f, len, src, work }
    }
}

impl<T: Copy, F: Fn(&mut [T])> Unit for SliceKernel<T, F> {
    fn before(&mut self, _j: usize) {
        self.work.copy_from_slice(&self.src);
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        for c in self.work.chunks_exact_mut(self.len) {
            (self.f)(std::hint::black_box(c));
        }
    }
    fn ops_per_sample(&self) -> usize {
        CALLS_PER_SAMPLE
    }
}

/// Random windows handed out in turn: the "software side" reduced to a copy, so that the
/// sample times the kernel side alone (the signer's ChaCha20 refill is not timed here).
struct WindowPool {
    windows: Vec<[u8; WINDOW]>,
    next: usize,
}

impl Refill for WindowPool {
    fn refill(&mut self, window: &mut [u8; WINDOW]) {
        window.copy_from_slice(&self.windows[self.next]);
        self.next = (self.next + 1) % self.windows.len();
    }
}

/// SamplerZ kernel on requests shaped as the signer makes them: pairs (the real and
/// imaginary leaf of one ffSampling step) sharing one 1/σ, σ uniform in
/// [σ_min, σ_0 = 1.8205] (the leaf widths of Falcon keys lie in that range), centres
/// uniform in [−2^11, 2^11) with a random fractional part. The random stream continues
/// from sample to sample (refilled from a pool of precomputed windows).
pub struct SamplerZ {
    k: &'static ksz::SamplerKernels,
    sigma_min: Fpr,
    reqs: Vec<Request>,
    out: Vec<i32>,
    /// Next request to use (the pool is cycled).
    at: usize,
    window: Window,
    pool: WindowPool,
}

impl SamplerZ {
    /// Requests per kernel call.
    pub const BATCH: usize = 2;
    /// Requests per sample.
    const PER_SAMPLE: usize = 64;
    /// Distinct requests (cycled).
    const POOL: usize = 4096;

    pub fn new(b: Backend, logn: u32) -> Self {
        let mut rng = SplitMix(0x5a3b_1e72 + logn as u64);
        let sigma_min = fpr::SIGMA_MIN[logn as usize];
        let smin = f64::from_bits(sigma_min.to_bits());
        let f = |x: f64| Fpr::from_bits(x.to_bits());
        let mut reqs = Vec::with_capacity(Self::POOL);
        while reqs.len() < Self::POOL {
            let sigma = smin + (1.8205 - smin) * rng.unit();
            let isigma = f(1.0 / sigma);
            for _ in 0..Self::BATCH {
                let mu = f((rng.unit() - 0.5) * 4096.0);
                reqs.push(Request { mu, isigma });
            }
        }
        let windows = (0..64)
            .map(|_| {
                let mut w = [0u8; WINDOW];
                rng.fill(&mut w);
                w
            })
            .collect();
        SamplerZ {
            k: ksz::kernels(b),
            sigma_min,
            reqs,
            out: vec![0; Self::PER_SAMPLE],
            at: 0,
            window: Window::default(),
            pool: WindowPool { windows, next: 0 },
        }
    }
}

impl Unit for SamplerZ {
    fn before(&mut self, _j: usize) {
        self.at = (self.at + Self::PER_SAMPLE) % Self::POOL;
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        let reqs = &self.reqs[self.at..self.at + Self::PER_SAMPLE];
        let mut stream = Stream {
            window: &mut self.window,
            source: &mut self.pool,
        };
        for (r, o) in reqs
            .chunks_exact(Self::BATCH)
            .zip(self.out.chunks_exact_mut(Self::BATCH))
        {
            (self.k.sample)(&mut stream, self.sigma_min, std::hint::black_box(r), o);
        }
        std::hint::black_box(&self.out);
    }
    fn ops_per_sample(&self) -> usize {
        Self::PER_SAMPLE
    }
}

// ---------------------------------------------------------------------------------------
// SNOVA: the GF(16) kernels per l (4 and 5) and the public-seed XOFs per parameter set.
// ---------------------------------------------------------------------------------------

/// SNOVA kernel rows are long (tens of µs to ms): fewer samples than the defaults (rounds
/// at scale 1, samples per round).
const SNOVA_PLAN: (f64, usize) = (32.0, 8);

/// The shapes of one l, taken from the Round-3 sets with that l: (set, v, o, l, r).
const SNOVA_SHAPES: [(&str, usize, usize, usize, usize); 4] = [
    ("SNOVA_I_S", 27, 5, 4, 4),
    ("SNOVA_III_K", 38, 4, 4, 8),
    ("SNOVA_V_S", 40, 6, 5, 5),
    ("SNOVA_V_K", 40, 4, 5, 8),
];

fn snova_cases(backends: &[Backend], v: &mut Vec<KernelCase>) {
    use pqsig::kernels::gf16;
    let plan = Some(SNOVA_PLAN);
    for l in [4usize, 5] {
        let alg: &'static str = if l == 4 { "SNOVA l=4" } else { "SNOVA l=5" };
        let shapes: Vec<_> = SNOVA_SHAPES.iter().filter(|s| s.3 == l).collect();
        // gemm_acc: the three wide products of the scheme code (snova/keygen.rs, sign.rs,
        // eval.rs), for the S set of this l: keygen's F21 = T12ᵀ·P11 (ol × vl · vl × m1·vl),
        // signing's Uᵀ = Wᵀ·P11 (lr × vl · vl × m1·vl) and verification's Uᵀ = Wᵀ·P
        // (lr × nl · nl × m1·nl), P row-interleaved, A read transposed (a_rs = 1).
        let &(set, vv, o, _, r) = shapes[0];
        let m1 = pqsig::snova::ParamSet::from_name(set).expect("a set").m1();
        let (vl, ol, nl, lr) = (vv * l, o * l, (vv + o) * l, l * r);
        for (op, m, kk, n, what) in [
            ("gemm_acc kg", ol, vl, m1 * vl, "keygen T12ᵀ·P11"),
            ("gemm_acc sg", lr, vl, m1 * vl, "sign Wᵀ·P11"),
            ("gemm_acc vf", lr, nl, m1 * nl, "verify Wᵀ·P"),
        ] {
            for &b in backends {
                v.push(KernelCase {
                    alg,
                    op,
                    backend: b.name().into(),
                    note: format!("{m}×{kk}·{kk}×{n} per call, unreduced ({set} {what})"),
                    fpr: None,
                    variant: None,
                    plan,
                    unit: Box::new(Gemm::new(gf16::kernels(b), m, kk, n, 11 + l as u64)),
                });
            }
        }
        // mat_mul_batch: l×l · l×r products, 64 per call, for the sets' r; and signing's
        // Bᵀ·T0 batch (l×r · r×ol, snova/sign.rs) for the S set.
        let mut mm: Vec<(&'static str, usize, usize, usize, &str)> = shapes
            .iter()
            .map(|&&(set, _, _, _, r)| {
                (
                    if r == l { "matmul r=l" } else { "matmul r=8" },
                    l,
                    l,
                    r,
                    set,
                )
            })
            .collect();
        mm.push(("matmul sg", l, r, ol, set));
        for (op, p, kk, q, set) in mm {
            for &b in backends {
                v.push(KernelCase {
                    alg,
                    op,
                    backend: b.name().into(),
                    note: format!(
                        "per product ({p}×{kk}·{kk}×{q}, {} per call; {set})",
                        MatMulBatch::COUNT
                    ),
                    fpr: None,
                    variant: None,
                    plan,
                    unit: Box::new(MatMulBatch::new(gf16::kernels(b), p, kk, q, 21 + q as u64)),
                });
            }
        }
        // solve: the o·l·r system of signing.
        for &&(set, _, o, _, r) in &shapes {
            let n = o * l * r;
            for &b in backends {
                v.push(KernelCase {
                    alg,
                    op: if r == l { "solve S" } else { "solve K" },
                    backend: b.name().into(),
                    note: format!("n = o·l·r = {n} ({set}), augmented {n}×{}", n + 1),
                    fpr: None,
                    variant: None,
                    plan,
                    unit: Box::new(Solve::new(gf16::kernels(b), n, 31 + n as u64)),
                });
            }
        }
    }
    // The public-seed expansion (P11, P12, P21) of every set: SHAKE128 counter mode for
    // the default sets, AES-128-CTR for the _AES ones.
    for ps in pqsig::snova::ParamSet::ALL {
        let (vv, o, l, m1) = (ps.v(), ps.o(), ps.l(), ps.m1());
        let len = m1 * (vv * vv + 2 * vv * o) * l * l / 2;
        let aes = ps.uses_aes();
        for &b in backends {
            v.push(KernelCase {
                alg: ps.name(),
                op: if aes { "aes128_ctr" } else { "shake128_ctr" },
                backend: b.name().into(),
                note: format!("{len} bytes (P11, P12, P21 from the public seed)"),
                fpr: None,
                variant: None,
                plan,
                unit: Box::new(Xof {
                    b,
                    aes,
                    out: vec![0; len],
                    seed: [0x5a; 16],
                }),
            });
        }
    }
}

/// Uniform GF(16) elements (one per byte, reduced).
fn gf16_elems(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix(seed);
    let mut v = vec![0u8; len];
    rng.fill(&mut v);
    v.iter_mut().for_each(|x| *x &= 15);
    v
}

/// `gemm_acc` on one m × kk · kk × n product per call (C zeroed before each sample), A
/// stored kk × m and read transposed (`a_rs = 1`, `a_cs = m`) as the scheme code does.
struct Gemm {
    k: &'static pqsig::kernels::gf16::Kernels,
    m: usize,
    kk: usize,
    n: usize,
    a: Vec<u8>,
    b: Vec<u8>,
    c: Vec<u8>,
}

impl Gemm {
    fn new(
        k: &'static pqsig::kernels::gf16::Kernels,
        m: usize,
        kk: usize,
        n: usize,
        seed: u64,
    ) -> Self {
        Gemm {
            k,
            m,
            kk,
            n,
            a: gf16_elems(m * kk, seed),
            b: gf16_elems(kk * n, seed ^ 0xb),
            c: vec![0; m * n],
        }
    }
}

impl Unit for Gemm {
    fn before(&mut self, _j: usize) {
        self.c.fill(0);
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        let (m, kk, n) = (self.m, self.kk, self.n);
        (self.k.gemm_acc)(
            std::hint::black_box(&mut self.c),
            n,
            &self.a,
            1,
            m,
            &self.b,
            n,
            m,
            kk,
            n,
        );
        std::hint::black_box(&self.c);
    }
}

/// `mat_mul_batch`: `COUNT` products p×k · k×q per call, timed per product.
struct MatMulBatch {
    k: &'static pqsig::kernels::gf16::Kernels,
    p: usize,
    kk: usize,
    q: usize,
    a: Vec<u8>,
    b: Vec<u8>,
    out: Vec<u8>,
}

impl MatMulBatch {
    const COUNT: usize = 64;
    fn new(
        k: &'static pqsig::kernels::gf16::Kernels,
        p: usize,
        kk: usize,
        q: usize,
        seed: u64,
    ) -> Self {
        MatMulBatch {
            k,
            p,
            kk,
            q,
            a: gf16_elems(Self::COUNT * p * kk, seed),
            b: gf16_elems(Self::COUNT * kk * q, seed ^ 0xb),
            out: vec![0; Self::COUNT * p * q],
        }
    }
}

impl Unit for MatMulBatch {
    #[inline]
    fn run(&mut self, _j: usize) {
        let (p, kk, q) = (self.p, self.kk, self.q);
        (self.k.mat_mul_batch)(
            std::hint::black_box(&mut self.out),
            &self.a,
            &self.b,
            p,
            kk,
            q,
        );
        std::hint::black_box(&self.out);
    }
    fn ops_per_sample(&self) -> usize {
        Self::COUNT
    }
}

/// `solve` on a random n × (n+1) system (rows padded to a multiple of 32 bytes), the
/// input copied in before each sample (the kernel works in place). Constant time: the
/// outcome (singular or not) does not change the time.
struct Solve {
    k: &'static pqsig::kernels::gf16::Kernels,
    n: usize,
    stride: usize,
    src: Vec<u8>,
    aug: Vec<u8>,
    x: Vec<u8>,
}

impl Solve {
    fn new(k: &'static pqsig::kernels::gf16::Kernels, n: usize, seed: u64) -> Self {
        let stride = (n + 1).div_ceil(32) * 32;
        let mut src = gf16_elems(n * stride, seed);
        for row in src.chunks_exact_mut(stride) {
            row[n + 1..].fill(0);
        }
        Solve {
            k,
            n,
            stride,
            aug: src.clone(),
            src,
            x: vec![0; n],
        }
    }
}

impl Unit for Solve {
    fn before(&mut self, _j: usize) {
        self.aug.copy_from_slice(&self.src);
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        let ok = (self.k.solve)(
            std::hint::black_box(&mut self.aug),
            self.n,
            self.stride,
            &mut self.x,
        );
        std::hint::black_box((ok, &self.x));
    }
}

/// The public-seed XOF of one set, one whole expansion per call.
struct Xof {
    b: Backend,
    aes: bool,
    out: Vec<u8>,
    seed: [u8; 16],
}

impl Unit for Xof {
    fn before(&mut self, j: usize) {
        self.seed[0] = j as u8;
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        use pqsig::kernels::xof;
        if self.aes {
            xof::aes128_ctr(self.b, &self.seed, std::hint::black_box(&mut self.out));
        } else {
            xof::shake128_ctr(self.b, &self.seed, std::hint::black_box(&mut self.out));
        }
        std::hint::black_box(&self.out);
    }
}

//! The SamplerZ device RTL (`hw/falcon/rtl/falcon_samplerz.v`, through
//! `pqsig_hwsim::samplerz::RtlSamplerZ`) against the library's golden model of a device,
//! `samplerz::device::serve_on_cpu`: the same integers, the same stream advance and
//! `NeedMore` in the same cases, on
//! * random batches (Falcon's shapes: 1 to 4 requests, 1/σ over the leaves' range for
//!   logn 9 and 10, centres below 2^14, every read position, 0 to 6 windows ahead):
//!   5,000 requests by default, 10^5 with `PQSIG_HWSIM_FULL=1`;
//! * random batches outside Falcon's domain (any |μ| < 2^62, 1/σ in [1/4, 4], any σ_min
//!   up to 1/(1/σ)): the arithmetic is the library's on every input;
//! * directed cases: μ on and next to integers, ±0, negative μ, σ at both ends of
//!   Falcon-512/1024's leaf range, read positions at the end of the window, windows
//!   running out (NeedMore), more windows than the device's RAM holds (every centre ×
//!   σ × position with 0, 1 and 2 windows ahead in the full form, one of the three
//!   in turn in the short form);
//! * the first round-3 Falcon-512 KAT records signed with every SamplerZ request served
//!   by the RTL (3 by default, all 100 and Falcon-1024's first 10 with
//!   `PQSIG_HWSIM_FULL=1`): byte-identical signatures.
//!
//! The random test prints the cycles per sample (mean and distribution).

#[path = "../../pqsig/tests/common/mod.rs"]
mod common;

use pqsig::kernels::falcon::fpr::{Fpr, SIGMA_MIN};
use pqsig::kernels::falcon::samplerz::device::{serve_on_cpu, SamplerZReply, SamplerZRequest};
use pqsig::kernels::falcon::samplerz::{Request, WINDOW};
use pqsig::DeviceError;
use pqsig_hwsim::samplerz::RtlSamplerZ;

fn full() -> bool {
    std::env::var("PQSIG_HWSIM_FULL")
        .map(|v| v == "1")
        .unwrap_or(false)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn window(&mut self) -> [u8; WINDOW] {
        let mut w = [0u8; WINDOW];
        for c in w.chunks_mut(8) {
            c.copy_from_slice(&self.next().to_le_bytes());
        }
        w
    }
}

fn fpr(x: f64) -> Fpr {
    Fpr::from_bits(x.to_bits())
}

/// σ_0 of the base sampler: the largest leaf σ.
const SIGMA0: f64 = 1.8205;

/// A request of Falcon's shape for degree logn: centre below 2^14 in magnitude, σ in
/// [σ_min, σ_0].
fn falcon_request(r: &mut Rng, logn: usize) -> Request {
    let smin = f64::from_bits(SIGMA_MIN[logn].to_bits());
    let sigma = smin + (SIGMA0 - smin) * r.unit();
    let mu = (r.unit() * 2.0 - 1.0) * 16384.0;
    Request {
        mu: fpr(mu),
        isigma: fpr(1.0 / sigma),
    }
}

/// One batch on both; panics on any difference. Returns the RTL's reply and the
/// per-request cycles of a served batch.
fn check(
    dev: &mut RtlSamplerZ,
    req: &SamplerZRequest<'_>,
    what: &str,
) -> (SamplerZReply, Vec<u64>, Vec<u32>) {
    let n = req.reqs.len();
    let mut want = vec![i32::MIN; n];
    let mut got = vec![i32::MIN; n];
    let cpu = serve_on_cpu(req, &mut want);
    let rtl = dev.serve(req, &mut got);
    match (cpu, rtl) {
        (Ok(a), Ok((b, cycles))) => {
            assert_eq!(a, b, "{what}: reply");
            if let SamplerZReply::Done(_) = a {
                assert_eq!(got, want, "{what}: outputs");
                let t = dev.trace();
                assert_eq!(t.req_cycles.len(), n, "{what}");
                assert_eq!(t.req_cycles.iter().sum::<u64>(), cycles, "{what}");
                return (b, t.req_cycles.clone(), t.attempts.clone());
            }
            assert!(
                got.iter().all(|&z| z == i32::MIN),
                "{what}: NeedMore wrote out"
            );
            (b, vec![], vec![])
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{what}: error");
            (SamplerZReply::NeedMore, vec![], vec![])
        }
        (a, b) => panic!("{what}: cpu {a:?}, rtl {b:?}"),
    }
}

/// Random batches of Falcon's shape: requests, replies, cycles.
#[test]
fn random_batches_match_the_cpu_model() {
    let target = if full() { 100_000 } else { 5_000 };
    let mut r = Rng(0x5A3C_96F0_1234_8765);
    let mut dev = RtlSamplerZ::new();
    let (mut requests, mut batches, mut need_more, mut deep) = (0usize, 0usize, 0usize, 0usize);
    let mut cycles: Vec<u64> = Vec::new();
    let mut attempts: Vec<u32> = Vec::new();
    while requests < target {
        let logn = 9 + r.below(2) as usize;
        let n = 1 + r.below(4) as usize;
        let reqs: Vec<Request> = (0..n).map(|_| falcon_request(&mut r, logn)).collect();
        // Mostly the host's shapes (0 to 2 windows ahead), sometimes more than the RAM's
        // four slots hold.
        let ahead_n = if r.below(8) == 0 {
            3 + r.below(4) as usize
        } else {
            r.below(3) as usize
        };
        let pos = if r.below(4) == 0 {
            WINDOW - r.below(16) as usize
        } else {
            r.below(WINDOW as u64 + 1) as usize
        };
        let window = r.window();
        let ahead: Vec<[u8; WINDOW]> = (0..ahead_n).map(|_| r.window()).collect();
        let req = SamplerZRequest {
            sigma_min: SIGMA_MIN[logn],
            reqs: &reqs,
            window: &window,
            pos,
            ahead: &ahead,
        };
        let (reply, c, a) = check(&mut dev, &req, &format!("batch {batches}"));
        match reply {
            SamplerZReply::Done(_) => {
                deep += (ahead_n >= 4) as usize;
                cycles.extend(c);
                attempts.extend(a);
            }
            SamplerZReply::NeedMore => need_more += 1,
        }
        requests += n;
        batches += 1;
    }
    assert!(need_more > 0, "no batch ran out of windows");
    let pairs: Vec<(u64, u32)> = cycles
        .iter()
        .copied()
        .zip(attempts.iter().copied())
        .collect();
    cycles.sort_unstable();
    let mean = cycles.iter().sum::<u64>() as f64 / cycles.len() as f64;
    let att = attempts.iter().map(|&a| a as u64).sum::<u64>() as f64 / attempts.len() as f64;
    let pct = |p: f64| cycles[((cycles.len() - 1) as f64 * p) as usize];
    println!(
        "{requests} requests in {batches} batches ({need_more} NeedMore, {deep} with more windows than the RAM's 4 slots): \
         {} samples, cycles/sample mean {mean:.1}, min {}, median {}, p90 {}, p99 {}, max {}; \
         attempts/sample {att:.3}",
        cycles.len(),
        cycles[0],
        pct(0.5),
        pct(0.9),
        pct(0.99),
        cycles[cycles.len() - 1]
    );
    // Cycles by number of attempts (an attempt's work is fixed but for BerExp's bytes).
    for k in 1..=3u32 {
        let v: Vec<u64> = pairs.iter().filter(|p| p.1 == k).map(|p| p.0).collect();
        if !v.is_empty() {
            let m = v.iter().sum::<u64>() as f64 / v.len() as f64;
            println!(
                "  {} samples with {k} attempt(s): mean {m:.1} cycles",
                v.len()
            );
        }
    }
}

/// Outside Falcon's domain: any centre below 2^62, 1/σ in [1/4, 4], σ_min up to σ.
#[test]
fn wide_inputs_match_the_cpu_model() {
    let count = if full() { 20_000 } else { 1_500 };
    let mut r = Rng(0x0BAD_CAFE_F00D_0001);
    let mut dev = RtlSamplerZ::new();
    let mut done = 0;
    for i in 0..count {
        let e = r.below(62) as i32;
        let mu = (r.unit() * 2.0 - 1.0) * 2f64.powi(e);
        let isigma = 0.25 * 16f64.powf(r.unit());
        let smin = (1.0 / isigma) * (0.25 + 0.75 * r.unit());
        let reqs = [Request {
            mu: fpr(mu),
            isigma: fpr(isigma),
        }];
        let window = r.window();
        let ahead: Vec<[u8; WINDOW]> = (0..4).map(|_| r.window()).collect();
        let req = SamplerZRequest {
            sigma_min: fpr(smin),
            reqs: &reqs,
            window: &window,
            pos: r.below(WINDOW as u64 + 1) as usize,
            ahead: &ahead,
        };
        let (reply, _, _) = check(
            &mut dev,
            &req,
            &format!("wide {i}: mu {mu:e} isigma {isigma}"),
        );
        done += matches!(reply, SamplerZReply::Done(_)) as usize;
    }
    assert!(done > count / 2, "only {done} of {count} served");
}

/// Directed centres, widths, positions and window supplies.
#[test]
fn directed_cases_match_the_cpu_model() {
    let mut r = Rng(0x7777_1234_ABCD_0042);
    let mut dev = RtlSamplerZ::new();
    let up = |x: f64| f64::from_bits(x.to_bits() + 1);
    let down = |x: f64| f64::from_bits(x.to_bits() - 1);
    let mut mus = vec![0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 12288.0, -12288.0, 16383.75];
    for k in [1.0f64, 2.0, 3.0, 100.0, 4095.0, 16384.0] {
        for s in [1.0, -1.0] {
            let x = s * k;
            mus.extend([x, up(x), down(x), x + 0.5, x - 0.5, x + 1e-9, x - 1e-9]);
        }
    }
    mus.extend([f64::MIN_POSITIVE, -f64::MIN_POSITIVE, 1e-300, -1e-300]);
    let mut cases = 0;
    let mut need_more = 0;
    for logn in [9usize, 10] {
        let smin = f64::from_bits(SIGMA_MIN[logn].to_bits());
        // σ at both ends of the leaf range (σ_min: ccs = 1 up to rounding), and inside.
        let sigmas = [smin, up(smin), 1.5, down(SIGMA0), SIGMA0];
        for &sigma in &sigmas {
            for &mu in &mus {
                let reqs = [Request {
                    mu: fpr(mu),
                    isigma: fpr(1.0 / sigma),
                }; 2];
                let window = r.window();
                let ahead: Vec<[u8; WINDOW]> = (0..2).map(|_| r.window()).collect();
                for (pi, pos) in [0usize, 100, 490, 500, 502, 503, 504, 510, 511, 512]
                    .into_iter()
                    .enumerate()
                {
                    // Short form: one supply per position (rotating); full form: all three.
                    let supplies = if full() {
                        0..3
                    } else {
                        (pi + cases) % 3..(pi + cases) % 3 + 1
                    };
                    for supplied in supplies {
                        let req = SamplerZRequest {
                            sigma_min: SIGMA_MIN[logn],
                            reqs: &reqs,
                            window: &window,
                            pos,
                            ahead: &ahead[..supplied],
                        };
                        let what = format!(
                            "logn {logn} sigma {sigma} mu {mu:e} pos {pos} ahead {supplied}"
                        );
                        let (reply, _, _) = check(&mut dev, &req, &what);
                        need_more += (reply == SamplerZReply::NeedMore) as usize;
                        cases += 1;
                    }
                }
            }
        }
    }
    // An empty window with nothing ahead: NeedMore before any byte; no requests: no move.
    let w = r.window();
    let one = [Request {
        mu: fpr(3.25),
        isigma: fpr(0.7),
    }];
    let req = SamplerZRequest {
        sigma_min: SIGMA_MIN[9],
        reqs: &one,
        window: &w,
        pos: WINDOW,
        ahead: &[],
    };
    assert_eq!(check(&mut dev, &req, "empty").0, SamplerZReply::NeedMore);
    let req = SamplerZRequest { reqs: &[], ..req };
    check(&mut dev, &req, "no requests");
    // Malformed requests are declined, like the CPU model.
    let req = SamplerZRequest {
        pos: WINDOW + 1,
        reqs: &one,
        ..req
    };
    assert_eq!(dev.serve(&req, &mut [0]), Err(DeviceError::Declined));
    let req = SamplerZRequest { pos: 0, ..req };
    assert_eq!(dev.serve(&req, &mut []), Err(DeviceError::Declined));
    // Long batches over many windows (the RAM holds four; the rest are written as the
    // device leaves windows).
    for i in 0..6 {
        let reqs: Vec<Request> = (0..300)
            .map(|_| falcon_request(&mut r, 9 + i % 2))
            .collect();
        let window = r.window();
        let ahead: Vec<[u8; WINDOW]> = (0..40).map(|_| r.window()).collect();
        for supplied in [40usize, 12, 5] {
            let req = SamplerZRequest {
                sigma_min: SIGMA_MIN[9 + i % 2],
                reqs: &reqs,
                window: &window,
                pos: 37 * i,
                ahead: &ahead[..supplied],
            };
            let (reply, _, _) = check(&mut dev, &req, &format!("long {i} ahead {supplied}"));
            if supplied == 40 {
                assert!(matches!(reply, SamplerZReply::Done(a) if a.refills >= 5));
            }
            if supplied == 5 {
                assert_eq!(reply, SamplerZReply::NeedMore);
            }
        }
    }
    println!("{cases} directed batches, {need_more} NeedMore");
    assert!(need_more > 0);
}

/// Round-3 KAT signatures with every SamplerZ request served by the RTL.
mod kat {
    use super::common::parse_rsp;
    use pqsig::batch::{KernelDevice, MlDsaPoly, TransformMode};
    use pqsig::kernels::falcon::samplerz::device::{SamplerZReply, SamplerZRequest};
    use pqsig::kernels::internals::falcon::sign::round3::{Format, SEED_LEN};
    use pqsig::kernels::internals::falcon::sign::CompactKey;
    use pqsig::rng::drbg::KatDrbg;
    use pqsig::DeviceError;
    use pqsig_hwsim::samplerz::RtlSamplerZ;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};

    /// The RTL as the process's SamplerZ device, counting what it did.
    #[derive(Default)]
    struct RtlDevice {
        dev: Mutex<RtlSamplerZ>,
        served: AtomicU64,
        samples: AtomicU64,
        need_more: AtomicU64,
        failed: AtomicU64,
        cycles: AtomicU64,
    }

    impl KernelDevice for RtlDevice {
        fn name(&self) -> String {
            "rtl-samplerz-test".into()
        }
        fn max_polys(&self) -> usize {
            1
        }
        fn supports(&self, _: TransformMode) -> bool {
            false
        }
        fn transform_mldsa(
            &self,
            _: TransformMode,
            _: &mut [MlDsaPoly],
        ) -> Result<(), DeviceError> {
            Err(DeviceError::Declined)
        }
        fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
            Err(DeviceError::Declined)
        }
        fn supports_samplerz(&self) -> bool {
            true
        }
        fn samplerz(
            &self,
            req: &SamplerZRequest<'_>,
            out: &mut [i32],
        ) -> Result<SamplerZReply, DeviceError> {
            let r = self
                .dev
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .serve(req, out);
            match r {
                Ok((reply, cycles)) => {
                    self.cycles.fetch_add(cycles, Ordering::Relaxed);
                    match reply {
                        SamplerZReply::Done(_) => {
                            self.served.fetch_add(1, Ordering::Relaxed);
                            self.samples
                                .fetch_add(req.reqs.len() as u64, Ordering::Relaxed);
                        }
                        SamplerZReply::NeedMore => {
                            self.need_more.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Ok(reply)
                }
                Err(e) => {
                    self.failed.fetch_add(1, Ordering::Relaxed);
                    Err(e)
                }
            }
        }
    }

    /// The nonce and the signing seed of a record: the KAT generator's DRBG draws 2 and 3.
    fn drbg_draws(seed: &[u8]) -> ([u8; 40], [u8; SEED_LEN]) {
        let mut d = KatDrbg::new(seed.try_into().expect("48-byte seed"));
        let mut keygen = [0u8; 48];
        d.fill(&mut keygen);
        let mut nonce = [0u8; 40];
        d.fill(&mut nonce);
        let mut sseed = [0u8; SEED_LEN];
        d.fill(&mut sseed);
        (nonce, sseed)
    }

    /// The NIST `sm` of a compressed signature (`0x30 + logn ‖ nonce ‖ comp(s2)`).
    fn to_sm(sig: &[u8], msg: &[u8]) -> Vec<u8> {
        let comp = &sig[41..];
        let siglen = comp.len() + 1;
        let mut sm = vec![(siglen >> 8) as u8, siglen as u8];
        sm.extend_from_slice(&sig[1..41]);
        sm.extend_from_slice(msg);
        sm.push(0x20 + (sig[0] & 0x0F));
        sm.extend_from_slice(comp);
        sm
    }

    fn sign_records(rel: &str, logn: u32, count: usize) {
        let recs = parse_rsp(rel);
        for (i, r) in recs.iter().take(count).enumerate() {
            let (nonce, sseed) = drbg_draws(&r.seed);
            let ck = CompactKey::from_bytes(&r.sk).expect("sk");
            assert_eq!(ck.logn(), logn);
            let sig = ck
                .sign_round3(&r.msg, &nonce, &sseed, Format::Compressed)
                .expect("sign");
            assert!(to_sm(&sig, &r.msg) == r.sm, "{rel} #{i}: signature differs");
        }
    }

    #[test]
    fn kat_signatures_with_the_rtl_sampler() {
        let (n512, n1024) = if super::full() { (100, 10) } else { (3, 0) };
        let dev = Arc::new(RtlDevice::default());
        pqsig::batch::set_kernel_device(Some(dev.clone()));
        let r = std::panic::catch_unwind(|| {
            sign_records("falcon/round3/falcon512-KAT.rsp", 9, n512);
            sign_records("falcon/round3/falcon1024-KAT.rsp", 10, n1024);
        });
        pqsig::batch::set_kernel_device(None);
        if let Err(e) = r {
            std::panic::resume_unwind(e);
        }
        let served = dev.served.load(Ordering::Relaxed);
        let samples = dev.samples.load(Ordering::Relaxed);
        let cycles = dev.cycles.load(Ordering::Relaxed);
        println!(
            "{n512} Falcon-512 + {n1024} Falcon-1024 KAT signatures: {served} requests ({samples} samples) \
             served by the RTL, {} NeedMore, {} failed; {cycles} device cycles ({:.1} per sample)",
            dev.need_more.load(Ordering::Relaxed),
            dev.failed.load(Ordering::Relaxed),
            cycles as f64 / samples.max(1) as f64
        );
        assert_eq!(dev.failed.load(Ordering::Relaxed), 0);
        // Each signing attempt samples n integers in n/2 pair requests.
        assert!(
            served >= (n512 * 256 + n1024 * 512) as u64,
            "served {served}"
        );
    }
}

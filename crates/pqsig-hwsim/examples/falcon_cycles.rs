//! Cycle figures of hw/falcon from the Verilator models, each from a run checked
//! against the library: the latency of falcon_fpadd and falcon_fpmul (measured on the
//! model, on a stream checked against `fpr::emulated`), and the cycles of one forward
//! and one inverse transform of the FFT engine at n = 512 and 1024, with one and with two
//! adders/multipliers (keys fft512, ifft512, fft512x2, ...; checked against the portable
//! kernels), and the SamplerZ device's mean cycles per sample (key samplerz, with
//! samplerz_p50 / samplerz_p99: 4,000 Falcon-512-shaped pair requests, every batch checked
//! against `samplerz::device::serve_on_cpu`). One JSON object on stdout; exit status 1 on
//! any mismatch.
//! Usage: cargo run -p pqsig-hwsim --example falcon_cycles
use pqsig::kernels::falcon::fft::portable;
use pqsig::kernels::falcon::fpr::{emulated::Fpr as E, Fpr};
use pqsig_hwsim::falcon::{fft_run_units, fpu_stream, FpOp};

fn main() {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let a: Vec<u64> = (0..4096)
        .map(|_| (next() & !(0x400 << 52)) | (0x200 << 52))
        .collect();
    let b: Vec<u64> = (0..4096)
        .map(|_| (next() & !(0x400 << 52)) | (0x200 << 52))
        .collect();
    let mut out = Vec::new();
    for (op, name) in [(FpOp::Add, "fpadd"), (FpOp::Mul, "fpmul")] {
        let (r, lat) = fpu_stream(op, &a, &b).expect("simulation");
        for i in 0..a.len() {
            let (x, y) = (E::from_bits(a[i]), E::from_bits(b[i]));
            let want = if op == FpOp::Add { x.add(y) } else { x.mul(y) }.to_bits();
            if r[i] != want {
                eprintln!("{name}: mismatch on pair {i}");
                std::process::exit(1);
            }
        }
        out.push(format!("\"{name}\":{lat}"));
    }
    for logn in [9u32, 10] {
        let n = 1usize << logn;
        let input: Vec<u64> = (0..n)
            .map(|_| ((((next() >> 8) % 4001) as f64) - 2000.0).to_bits())
            .collect();
        for (units, inverse) in [(1, false), (1, true), (2, false), (2, true)] {
            let mut hw = input.clone();
            let cycles = fft_run_units(units, logn, inverse, &mut hw).expect("simulation");
            let mut sw: Vec<Fpr> = input.iter().map(|&x| Fpr::from_bits(x)).collect();
            if inverse {
                portable::ifft(&mut sw, logn);
            } else {
                portable::fft(&mut sw, logn);
            }
            if sw.iter().zip(&hw).any(|(x, &y)| x.to_bits() != y) {
                eprintln!("fft units {units} logn {logn} inverse {inverse}: mismatch");
                std::process::exit(1);
            }
            out.push(format!(
                "\"{}fft{n}{}\":{cycles}",
                if inverse { "i" } else { "" },
                if units == 2 { "x2" } else { "" }
            ));
        }
    }
    out.extend(samplerz_cycles(&mut next));
    println!("{{{}}}", out.join(","));
}

/// Mean / median / 99th percentile cycles per sample of the SamplerZ RTL over Falcon-512
/// pair requests (σ over the leaf range, centres below 2^14, one window ahead supplied).
fn samplerz_cycles(next: &mut impl FnMut() -> u64) -> Vec<String> {
    use pqsig::kernels::falcon::fpr::SIGMA_MIN;
    use pqsig::kernels::falcon::samplerz::device::{serve_on_cpu, SamplerZRequest};
    use pqsig::kernels::falcon::samplerz::{Request, WINDOW};
    use pqsig_hwsim::samplerz::RtlSamplerZ;
    let mut dev = RtlSamplerZ::new();
    let smin = f64::from_bits(SIGMA_MIN[9].to_bits());
    let mut unit = || (next() >> 11) as f64 / (1u64 << 53) as f64;
    let mut per: Vec<u64> = Vec::new();
    let mut pos = 0usize;
    let mut window = [0u8; WINDOW];
    let mut ahead = [[0u8; WINDOW]; 1];
    let fill = |w: &mut [u8; WINDOW], u: &mut dyn FnMut() -> f64| {
        for b in w.iter_mut() {
            *b = (u() * 256.0) as u8;
        }
    };
    fill(&mut window, &mut unit);
    fill(&mut ahead[0], &mut unit);
    for _ in 0..4000 {
        let isigma = Fpr::from_bits((1.0 / (smin + (1.8205 - smin) * unit())).to_bits());
        let reqs: Vec<Request> = (0..2)
            .map(|_| Request {
                mu: Fpr::from_bits(((unit() * 2.0 - 1.0) * 16384.0).to_bits()),
                isigma,
            })
            .collect();
        let req = SamplerZRequest {
            sigma_min: SIGMA_MIN[9],
            reqs: &reqs,
            window: &window,
            pos,
            ahead: &ahead,
        };
        let (mut want, mut got) = ([0i32; 2], [0i32; 2]);
        let cpu = serve_on_cpu(&req, &mut want).expect("cpu model");
        let (rtl, _) = dev.serve(&req, &mut got).expect("simulation");
        if cpu != rtl || want != got {
            eprintln!("samplerz: mismatch ({cpu:?} vs {rtl:?})");
            std::process::exit(1);
        }
        // The host's stream moves on (a new window after each refill).
        if let pqsig::kernels::falcon::samplerz::device::SamplerZReply::Done(adv) = rtl {
            per.extend(&dev.trace().req_cycles);
            pos = adv.pos;
            if adv.refills > 0 {
                window = ahead[0];
                fill(&mut ahead[0], &mut unit);
            }
        }
    }
    per.sort_unstable();
    let mean = per.iter().sum::<u64>() as f64 / per.len() as f64;
    vec![
        format!("\"samplerz\":{mean:.1}"),
        format!("\"samplerz_p50\":{}", per[per.len() / 2]),
        format!("\"samplerz_p99\":{}", per[per.len() * 99 / 100]),
    ]
}

//! Cycle figures of hw/falcon from the Verilator models, each from a run checked
//! against the library: the latency of falcon_fpadd and falcon_fpmul (measured on the
//! model, on a stream checked against `fpr::emulated`), and the cycles of one forward
//! and one inverse transform of the FFT engine at n = 512 and 1024, with one and with two
//! adders/multipliers (keys fft512, ifft512, fft512x2, ...; checked against the portable
//! kernels). One JSON object on stdout; exit status 1 on any mismatch.
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
    println!("{{{}}}", out.join(","));
}

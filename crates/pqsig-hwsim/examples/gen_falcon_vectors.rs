//! Writes the Icarus benches' vectors for hw/falcon (hw/falcon/tb/vectors), computed by
//! the library only (no simulation):
//!   fpu.hex        one 256-bit line per case: {op, a, b, result} (op 0 add, 1 sub,
//!                  2 mul), every pair of a list of directed values for each operation,
//!                  results from the integer-only binary64 (`fpr::emulated`);
//!   fft512_in.hex, fft512_fft.hex, fft512_ifft.hex   one word per line: a random input
//!                  and the portable kernels' `fft` and `ifft` of it;
//!   samplerz.hex   SamplerZ batches and `samplerz::device::serve_on_cpu`'s answers
//!                  (format at `samplerz_vectors`).
//! Usage: cargo run -p pqsig-hwsim --example gen_falcon_vectors -- hw/falcon/tb/vectors
use pqsig::kernels::falcon::fft::portable;
use pqsig::kernels::falcon::fpr::{emulated::Fpr as E, Fpr};
use std::io::Write;

const SIGN: u64 = 1 << 63;

fn directed() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        0x3FF0_0000_0000_0000,
        0x3FF0_0000_0000_0001,
        0x3FFF_FFFF_FFFF_FFFF,
        0x3CA0_0000_0000_0000,
        0x3CA8_0000_0000_0000,
        0x3FF8_0000_0000_0001,
        0x4000_0000_0000_0000,
        0x0010_0000_0000_0000,
        0x0010_0000_0000_0001,
        0x0020_0000_0000_0000,
        0x7FEF_FFFF_FFFF_FFFF,
        0x2000_0000_0000_0000,
        0x40C8_0040_0000_0000,
        0x3FE6_A09E_667F_3BCD,
        0x4330_0000_0000_0001,
        0x000F_FFFF_FFFF_FFFF,
    ];
    let neg: Vec<u64> = v.iter().map(|x| x ^ SIGN).collect();
    v.extend(neg);
    v
}

fn main() {
    let dir = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or("hw/falcon/tb/vectors".into()),
    );
    std::fs::create_dir_all(&dir).unwrap();
    let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join("fpu.hex")).unwrap());
    let d = directed();
    for op in 0..3u64 {
        for &a in &d {
            for &b in &d {
                let (x, y) = (E::from_bits(a), E::from_bits(b));
                let r = match op {
                    0 => x.add(y),
                    1 => x.sub(y),
                    _ => x.mul(y),
                };
                writeln!(f, "{op:016x}{a:016x}{b:016x}{:016x}", r.to_bits()).unwrap();
            }
        }
    }
    drop(f);
    // FFT, n = 512: integers in [-2000, 2000] (zeros sprinkled in)
    let mut s = 0x2468_ACE0_1357_9BDFu64;
    let input: Vec<u64> = (0..512)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            if s.is_multiple_of(29) {
                0
            } else {
                ((((s >> 8) % 4001) as f64) - 2000.0).to_bits()
            }
        })
        .collect();
    let write = |name: &str, w: &[u64]| {
        let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join(name)).unwrap());
        for x in w {
            writeln!(f, "{x:016x}").unwrap();
        }
    };
    write("fft512_in.hex", &input);
    for (inverse, name) in [(false, "fft512_fft.hex"), (true, "fft512_ifft.hex")] {
        let mut v: Vec<Fpr> = input.iter().map(|&b| Fpr::from_bits(b)).collect();
        if inverse {
            portable::ifft(&mut v, 9);
        } else {
            portable::fft(&mut v, 9);
        }
        let w: Vec<u64> = v.iter().map(|x| x.to_bits()).collect();
        write(name, &w);
    }
    samplerz_vectors(&dir);
}

/// `samplerz.hex` for tb_samplerz.v: batches of SamplerZ requests with the answer of
/// `serve_on_cpu`, one 64-bit word per line. Per batch: a header
/// `{count:16, pos:16, n_ahead:16, need_more:8, 0:8}`, sigma_min, the current window and
/// the windows ahead (64 little-endian words each), count × (mu, isigma), then (unless
/// need_more) the count outputs (i32, sign-extended), refills and pos. A zero header ends
/// the file. Directed: centres on and next to integers, negative centres, σ at both ends
/// of the leaf range for logn 9 and 10, read positions at the window's end, windows
/// running out (at most 3 ahead: the RAM's slots, so the bench needs no refills).
fn samplerz_vectors(dir: &std::path::Path) {
    use pqsig::kernels::falcon::fpr::SIGMA_MIN;
    use pqsig::kernels::falcon::samplerz::device::{serve_on_cpu, SamplerZReply, SamplerZRequest};
    use pqsig::kernels::falcon::samplerz::{Request, WINDOW};
    let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join("samplerz.hex")).unwrap());
    let mut s = 0x1234_5678_9ABC_DEF1u64;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let fpr = |x: f64| Fpr::from_bits(x.to_bits());
    let mut batches = 0;
    for case in 0..48usize {
        let logn = 9 + case % 2;
        let smin = f64::from_bits(SIGMA_MIN[logn].to_bits());
        let sigma = [smin, 1.8205, 1.5][(case / 2) % 3];
        let k = (case % 7) as f64 * 37.0 - 100.0;
        let mus = [k, f64::from_bits(k.to_bits() + 1), k - 0.5, -k + 0.25];
        let reqs: Vec<Request> = mus[..1 + case % 4]
            .iter()
            .map(|&m| Request {
                mu: fpr(m),
                isigma: fpr(1.0 / sigma),
            })
            .collect();
        let pos = [0usize, 250, 500, 502, 503, 510, 511, 512][case % 8];
        let n_ahead = (case / 8) % 4;
        let mut win = vec![[0u8; WINDOW]; 1 + n_ahead];
        for w in win.iter_mut() {
            for c in w.chunks_mut(8) {
                c.copy_from_slice(&rnd().to_le_bytes());
            }
        }
        let req = SamplerZRequest {
            sigma_min: SIGMA_MIN[logn],
            reqs: &reqs,
            window: &win[0],
            pos,
            ahead: &win[1..],
        };
        let mut out = vec![0i32; reqs.len()];
        let reply = serve_on_cpu(&req, &mut out).unwrap();
        let nm = matches!(reply, SamplerZReply::NeedMore) as u64;
        let hdr = ((reqs.len() as u64) << 48)
            | ((pos as u64) << 32)
            | ((n_ahead as u64) << 16)
            | (nm << 8);
        writeln!(f, "{hdr:016x}").unwrap();
        writeln!(f, "{:016x}", SIGMA_MIN[logn].to_bits()).unwrap();
        for w in &win {
            for c in w.chunks(8) {
                writeln!(f, "{:016x}", u64::from_le_bytes(c.try_into().unwrap())).unwrap();
            }
        }
        for r in &reqs {
            writeln!(f, "{:016x}", r.mu.to_bits()).unwrap();
            writeln!(f, "{:016x}", r.isigma.to_bits()).unwrap();
        }
        if let SamplerZReply::Done(adv) = reply {
            for &z in &out {
                writeln!(f, "{:016x}", z as i64 as u64).unwrap();
            }
            writeln!(f, "{:016x}", adv.refills).unwrap();
            writeln!(f, "{:016x}", adv.pos).unwrap();
        }
        batches += 1;
    }
    writeln!(f, "{:016x}", 0).unwrap();
    eprintln!("samplerz.hex: {batches} batches");
}

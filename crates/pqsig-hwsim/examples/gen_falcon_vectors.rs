//! Writes the Icarus benches' vectors for hw/falcon (hw/falcon/tb/vectors), computed by
//! the library only (no simulation):
//!   fpu.hex        one 256-bit line per case: {op, a, b, result} (op 0 add, 1 sub,
//!                  2 mul), every pair of a list of directed values for each operation,
//!                  results from the integer-only binary64 (`fpr::emulated`);
//!   fft512_in.hex, fft512_fft.hex, fft512_ifft.hex   one word per line: a random input
//!                  and the portable kernels' `fft` and `ifft` of it.
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
}

//! Writes the Icarus test bench's vectors (hw/ntt/tb/vectors): for one configuration
//! per modulus, `K` random polynomials (with 0, 1, q-1 edge values) and the library
//! kernels' results, reduced to [0, q), one hex word per line:
//!   q<q>_n<n>_in.hex, q<q>_n<n>_ntt.hex, q<q>_n<n>_intt.hex
//! (the inverse is applied to the same input). Usage:
//!   cargo run -p pqsig-hwsim --example gen_vectors -- hw/ntt/tb/vectors
use pqsig_hwsim::{golden, Config, Mode};
use std::io::Write;

const K: usize = 2;

fn write(path: &std::path::Path, w: &[u32]) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    for x in w {
        writeln!(f, "{x:08x}").unwrap();
    }
}

fn main() {
    let dir = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or("hw/ntt/tb/vectors".into()),
    );
    std::fs::create_dir_all(&dir).unwrap();
    for cfg in [Config::new(8380417, 256, 1), Config::new(12289, 1024, 1)] {
        let input = golden::Words::new(cfg.n as u64 * 31).residues(cfg.q, K * cfg.n as usize);
        let stem = format!("q{}_n{}", cfg.q, cfg.n);
        write(&dir.join(format!("{stem}_in.hex")), &input);
        for (mode, tag) in [(Mode::Ntt, "ntt"), (Mode::Intt, "intt")] {
            let mut w = input.clone();
            golden::transform(&cfg, mode, &mut w, K);
            write(&dir.join(format!("{stem}_{tag}.hex")), &w);
        }
    }
}

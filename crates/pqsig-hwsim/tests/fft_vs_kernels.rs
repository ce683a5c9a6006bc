//! The FFT engine of hw/falcon (falcon_fft at n = 512 and 1024, Verilated) against the
//! library's portable FFT kernels (`fft`, `ifft`), bit for bit, on random inputs; and its
//! cycle counts against the schedule's formula.

use pqsig::kernels::falcon::fft::portable;
use pqsig::kernels::falcon::fpr::Fpr;
use pqsig_hwsim::falcon::{fft_run, fft_run_units};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random inputs of the shapes the signer transforms: small integers (key and target
/// coefficients) or normal numbers with exponents within +-40 of 1, zeros sprinkled in.
fn input(r: &mut Rng, n: usize, kind: u32) -> Vec<u64> {
    (0..n)
        .map(|_| {
            let x = r.next();
            if x.is_multiple_of(29) {
                return x & (1 << 63);
            }
            match kind {
                0 => ((((x >> 8) % 4001) as f64) - 2000.0).to_bits(),
                _ => (x & (1 << 63)) | ((1023 - 40 + (x >> 1) % 81) << 52) | (r.next() >> 12),
            }
        })
        .collect()
}

fn library(data: &[u64], logn: u32, inverse: bool) -> Vec<u64> {
    let mut f: Vec<Fpr> = data.iter().map(|&b| Fpr::from_bits(b)).collect();
    if inverse {
        portable::ifft(&mut f, logn);
    } else {
        portable::fft(&mut f, logn);
    }
    f.iter().map(|x| x.to_bits()).collect()
}

/// Cycles of one transform: a butterfly every 6/units cycles, a 24-cycle drain per
/// layer; the inverse's scaling streams n/units words.
fn expected_cycles(units: u64, logn: u32, inverse: bool) -> u64 {
    let n = 1u64 << logn;
    let layers = (logn - 1) as u64 * (6 / units * n / 4 + 24) + 1;
    if inverse {
        layers + n / units + 9
    } else {
        layers
    }
}

#[test]
fn engine_matches_library_fft_and_ifft() {
    engine_matches_library(1, 0x0FF7_1234_5678_9ABC);
}

#[test]
fn two_unit_engine_matches_library_fft_and_ifft() {
    engine_matches_library(2, 0x2222_1234_5678_9ABC);
}

fn engine_matches_library(units: u32, seed: u64) {
    let mut r = Rng(seed);
    for logn in [9u32, 10] {
        let n = 1usize << logn;
        for kind in 0..2 {
            for inverse in [false, true] {
                let data = input(&mut r, n, kind);
                let want = library(&data, logn, inverse);
                let mut got = data.clone();
                let cycles = fft_run_units(units, logn, inverse, &mut got).expect("simulation");
                let bad: Vec<usize> = (0..n).filter(|&i| got[i] != want[i]).collect();
                assert!(
                    bad.is_empty(),
                    "units {units} logn {logn} inverse {inverse} kind {kind}: {} words differ, first #{} rtl {:#018x} library {:#018x}",
                    bad.len(),
                    bad[0],
                    got[bad[0]],
                    want[bad[0]]
                );
                assert_eq!(
                    cycles,
                    expected_cycles(units as u64, logn, inverse),
                    "units {units} logn {logn} inverse {inverse}"
                );
            }
        }
    }
}

#[test]
fn round_trip_through_the_engine_matches_library() {
    // fft then ifft on the engine, each step against the library (the signer's pattern).
    let mut r = Rng(0x1357_9BDF_2468_ACE0);
    for logn in [9u32, 10] {
        let n = 1usize << logn;
        let data = input(&mut r, n, 0);
        let mut hw = data.clone();
        fft_run(logn, false, &mut hw).unwrap();
        fft_run(logn, true, &mut hw).unwrap();
        let sw = library(&library(&data, logn, false), logn, true);
        assert_eq!(hw, sw, "logn {logn}");
    }
}

#[test]
fn bad_shapes_are_errors() {
    assert!(fft_run(8, false, &mut [0u64; 256]).is_err());
    assert!(fft_run(9, false, &mut [0u64; 100]).is_err());
    assert!(fft_run_units(3, 9, false, &mut [0u64; 512]).is_err());
}

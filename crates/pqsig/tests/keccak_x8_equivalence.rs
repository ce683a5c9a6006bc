//! The eight-way Keccak of every available backend against the portable one-state code:
//!
//! * `permute8` (both `permute8_for(b)` and the ML-DSA kernel table's entry) against eight
//!   calls of `keccak_f1600`: random states, chained outputs, edge states (zero, all ones,
//!   single bits, one instance set and the others zero);
//! * `ShakeX8` against eight single SHAKE128 / SHAKE256 sponges, for input lengths around
//!   every lane and block boundary, squeezing several blocks.
//!
//! Backends missing on this CPU are skipped (`Backend::available`).

use pqsig::kernels::keccak::f1600::keccak_f1600;
use pqsig::kernels::keccak::sponge::{Shake128, Shake256, SHAKE128_RATE, SHAKE256_RATE};
use pqsig::kernels::keccak::x8::{permute8_for, Permute8, ShakeX8, StateX8};
use pqsig::kernels::mldsa::kernels;
use pqsig::Backend;

/// xorshift64: deterministic test data without extra dependencies.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn state(&mut self) -> StateX8 {
        let mut st = StateX8::default();
        for lane in st.s.iter_mut() {
            for w in lane.iter_mut() {
                *w = self.next();
            }
        }
        st
    }
    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// The two ways a backend's eight-way permutation is reached.
fn permutations() -> Vec<(String, Permute8)> {
    Backend::available()
        .flat_map(|b| {
            [
                (format!("permute8_for({b:?})"), permute8_for(b)),
                (format!("kernels({b:?}).permute8"), kernels(b).permute8),
            ]
        })
        .collect()
}

/// Permutes `st` with `p` and checks each of the eight instances against the portable
/// permutation of that instance.
fn check(p: Permute8, st: &mut StateX8, what: &str) {
    let mut want = [[0u64; 25]; 8];
    for (j, one) in want.iter_mut().enumerate() {
        for (o, lane) in one.iter_mut().zip(st.s.iter()) {
            *o = lane[j];
        }
        keccak_f1600(one);
    }
    p(st);
    for (j, one) in want.iter().enumerate() {
        let got: [u64; 25] = core::array::from_fn(|i| st.s[i][j]);
        assert_eq!(&got, one, "{what}: instance {j}");
    }
}

#[test]
fn random_states_match_scalar() {
    for (name, p) in permutations() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for n in 0..128 {
            let mut st = rng.state();
            check(p, &mut st, &format!("{name}: random state {n}"));
        }
    }
}

#[test]
fn chained_states_match_scalar() {
    for (name, p) in permutations() {
        // Each step permutes the previous output again (as a sponge squeezing does),
        // after occasionally mixing fresh data into one instance so the chains diverge.
        let mut rng = XorShift(0x0123_4567_89AB_CDEF);
        let mut st = rng.state();
        for n in 0..128 {
            if n % 5 == 0 {
                let j = (rng.next() % 8) as usize;
                let i = (rng.next() % 25) as usize;
                st.s[i][j] ^= rng.next();
            }
            check(p, &mut st, &format!("{name}: chain step {n}"));
        }
    }
}

#[test]
fn edge_states_match_scalar() {
    for (name, p) in permutations() {
        // All zero: the published first lanes of Keccak-f[1600](0) as well.
        let mut st = StateX8::default();
        check(p, &mut st, &format!("{name}: zero state"));
        assert!(
            st.s[0].iter().all(|&w| w == 0xF125_8F79_40E1_DDE7),
            "{name}"
        );
        assert!(
            st.s[1].iter().all(|&w| w == 0x84D5_CCF9_33C0_478A),
            "{name}"
        );

        let mut st = StateX8 {
            s: [[u64::MAX; 8]; 25],
        };
        check(p, &mut st, &format!("{name}: all-ones state"));

        // One bit in one instance at a time (every lane, a spread of bit positions, every
        // instance): catches a wrong rotation or a lane leaking into another instance
        // (in particular across the two 256-bit halves).
        for i in 0..25 {
            for bit in [0u32, 1, 7, 8, 31, 32, 55, 56, 62, 63] {
                let j = (i + bit as usize) % 8;
                let mut st = StateX8::default();
                st.s[i][j] = 1u64 << bit;
                check(
                    p,
                    &mut st,
                    &format!("{name}: lane {i} bit {bit} instance {j}"),
                );
            }
        }

        // One instance random, the others zero.
        let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
        for j in 0..8 {
            let mut st = StateX8::default();
            for lane in st.s.iter_mut() {
                lane[j] = rng.next();
            }
            check(p, &mut st, &format!("{name}: only instance {j} set"));
        }
    }
}

/// Eight random inputs of length `len` through `ShakeX8<R>`, `blocks` blocks squeezed in
/// two calls, against eight single sponges.
fn check_shake<const R: usize>(
    p: Permute8,
    rng: &mut XorShift,
    len: usize,
    blocks: usize,
    what: &str,
) {
    let inputs: [Vec<u8>; 8] = core::array::from_fn(|_| rng.bytes(len));
    let mut x8 = ShakeX8::<R>::absorb_once(p, core::array::from_fn(|j| &inputs[j][..]));
    let mut outs: [Vec<u8>; 8] = core::array::from_fn(|_| vec![0u8; blocks * R]);
    let head = blocks / 2;
    x8.squeeze_blocks(outs.each_mut().map(|o| &mut o[..head * R]), head);
    x8.squeeze_blocks(outs.each_mut().map(|o| &mut o[head * R..]), blocks - head);
    for (j, (inp, got)) in inputs.iter().zip(outs.iter()).enumerate() {
        let mut want = vec![0u8; blocks * R];
        match R {
            SHAKE128_RATE => {
                let mut h = Shake128::new();
                h.absorb(inp);
                h.squeeze(&mut want);
            }
            SHAKE256_RATE => {
                let mut h = Shake256::new();
                h.absorb(inp);
                h.squeeze(&mut want);
            }
            _ => unreachable!("rate {R}"),
        }
        assert_eq!(got, &want, "{what}: len {len} lane {j}");
    }
}

#[test]
fn shake_x8_matches_single_sponges() {
    // Every length up to three SHAKE128 blocks and a bit (all lane offsets and both
    // rates' block boundaries), then some longer ones.
    let lens: Vec<usize> = (0..=520)
        .chain([671, 672, 673, 1000, 1087, 1088, 1089])
        .collect();
    for (name, p) in permutations() {
        let mut rng = XorShift(0x5555_AAAA_3333_CCCC);
        for &len in &lens {
            let blocks = 1 + len % 5;
            check_shake::<SHAKE128_RATE>(p, &mut rng, len, blocks, &format!("{name} SHAKE128"));
            check_shake::<SHAKE256_RATE>(p, &mut rng, len, blocks, &format!("{name} SHAKE256"));
        }
    }
}

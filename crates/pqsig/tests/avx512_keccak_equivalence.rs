//! The avx512 four-way Keccak-f[1600] (`permute4_for(Backend::Avx512)`) against four calls
//! of the portable one-state permutation: random states, chained outputs, and edge states
//! (all zero, all ones, single bits, one instance set and the others zero). Skipped, with
//! a message, when the CPU lacks AVX-512.

use pqsig::kernels::keccak::f1600::keccak_f1600;
use pqsig::kernels::keccak::x4::{permute4_for, StateX4};
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
    fn state(&mut self) -> StateX4 {
        let mut st = StateX4::default();
        for lane in st.s.iter_mut() {
            for w in lane.iter_mut() {
                *w = self.next();
            }
        }
        st
    }
}

/// Permutes `st` with the avx512 kernel and checks each of the four instances against the
/// portable permutation of that instance.
fn check(st: &mut StateX4, what: &str) {
    let mut want = [[0u64; 25]; 4];
    for (j, one) in want.iter_mut().enumerate() {
        for (o, lane) in one.iter_mut().zip(st.s.iter()) {
            *o = lane[j];
        }
        keccak_f1600(one);
    }
    permute4_for(Backend::Avx512)(st);
    for (j, one) in want.iter().enumerate() {
        let got: [u64; 25] = core::array::from_fn(|i| st.s[i][j]);
        assert_eq!(&got, one, "{what}: instance {j}");
    }
}

fn avx512_or_skip() -> bool {
    if Backend::Avx512.is_available() {
        true
    } else {
        println!("skipped: the avx512 backend is not available on this CPU");
        false
    }
}

#[test]
fn random_states_match_portable() {
    if !avx512_or_skip() {
        return;
    }
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for n in 0..256 {
        let mut st = rng.state();
        check(&mut st, &format!("random state {n}"));
    }
}

#[test]
fn chained_states_match_portable() {
    if !avx512_or_skip() {
        return;
    }
    // Each step permutes the previous output again (as a sponge squeezing does), after
    // occasionally mixing in fresh data on one instance so the four chains diverge.
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    let mut st = rng.state();
    for n in 0..256 {
        if n % 7 == 0 {
            let j = (rng.next() % 4) as usize;
            let i = (rng.next() % 25) as usize;
            st.s[i][j] ^= rng.next();
        }
        check(&mut st, &format!("chain step {n}"));
    }
}

#[test]
fn edge_states_match_portable() {
    if !avx512_or_skip() {
        return;
    }
    // All zero: the published first lanes of Keccak-f[1600](0) as well.
    let mut st = StateX4::default();
    check(&mut st, "zero state");
    assert!(st.s[0].iter().all(|&w| w == 0xF125_8F79_40E1_DDE7));
    assert!(st.s[1].iter().all(|&w| w == 0x84D5_CCF9_33C0_478A));

    let mut st = StateX4 {
        s: [[u64::MAX; 4]; 25],
    };
    check(&mut st, "all-ones state");

    // One bit set in one instance at a time (every lane, a spread of bit positions):
    // catches a wrong rotation amount or a lane leaking into a neighbouring instance.
    for i in 0..25 {
        for bit in [0u32, 1, 7, 8, 31, 32, 55, 56, 62, 63] {
            let j = (i + bit as usize) % 4;
            let mut st = StateX4::default();
            st.s[i][j] = 1u64 << bit;
            check(&mut st, &format!("lane {i} bit {bit} instance {j}"));
        }
    }

    // One instance random, the others zero.
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    for j in 0..4 {
        let mut st = StateX4::default();
        for lane in st.s.iter_mut() {
            lane[j] = rng.next();
        }
        check(&mut st, &format!("only instance {j} set"));
    }
}

#[test]
fn avx512_matches_avx2_kernel() {
    if !avx512_or_skip() {
        return;
    }
    // The avx512 backend requires AVX2 too, so both vector kernels can run here.
    let mut rng = XorShift(0x5555_AAAA_3333_CCCC);
    let mut a = rng.state();
    let mut b = a.clone();
    for _ in 0..64 {
        permute4_for(Backend::Avx512)(&mut a);
        permute4_for(Backend::Avx2)(&mut b);
        assert_eq!(a.s, b.s);
    }
}

//! SNOVA's seed expansion kernels (`kernels::xof`, `kernels::aes`) on every backend and
//! AES engine this CPU has:
//!
//! * `shake128_ctr` against a naive stream (one SHAKE128 sponge per 168-byte block) for
//!   output lengths around every block and batch boundary, seeds of several lengths;
//! * AES-128 against the FIPS 197 vectors (Appendix A.1 key expansion, Appendix B and
//!   C.1 ciphertexts) and SP 800-38A F.5.1 (CTR-AES128) for the block function;
//! * `aes128_ctr` against the `aes` crate (the KAT DRBG's dependency, used here only as
//!   an independent reference) for random keys and lengths;
//! * all backends and engines bit-identical.
//!
//! The loops run over the backends and engines this CPU has (`available()`); under qemu
//! on aarch64 that leaves portable + neon and bitsliced + ARMv8 CE. Each SIMD backend
//! and x86 AES engine also has a `coverage` test that is ignored where it is missing.

use aes::cipher::{BlockEncrypt, KeyInit};
use pqsig::kernels::aes::{Aes128, Engine};
use pqsig::kernels::keccak::f1600::keccak_f1600;
use pqsig::kernels::keccak::Shake128;
use pqsig::kernels::xof::{aes128_ctr, shake128_ctr};
use pqsig::Backend;

mod common;
use common::XorShift;

// A backend or AES engine this CPU lacks shows as an ignored `coverage` test.
coverage_tests!(engines);

/// The SHAKE128 counter stream the obvious way (portable permutation, one block per
/// sponge).
fn shake_naive(seed: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    for (i, chunk) in out.chunks_mut(168).enumerate() {
        let mut h = Shake128::new().with_permutation(keccak_f1600);
        h.absorb(seed);
        h.absorb(&(i as u64).to_le_bytes());
        h.squeeze(chunk);
    }
    out
}

/// Lengths at and around block (168) and batch (4·168, 8·168) boundaries, and the
/// SNOVA stream sizes' order of magnitude.
fn lengths() -> Vec<usize> {
    let mut v = vec![0, 1, 2, 15, 16, 17, 167, 168, 169, 335, 336, 337];
    for k in [3usize, 4, 5, 7, 8, 9, 11, 12, 15, 16, 17] {
        v.extend([168 * k - 1, 168 * k, 168 * k + 1]);
    }
    v.extend([168 * 8 * 3 + 168 * 5 + 100, 39960, 40000]);
    v
}

#[test]
fn shake128_ctr_matches_naive_every_backend() {
    let mut rng = XorShift(0x5EED_0001);
    for seed_len in [16usize, 0, 1, 7, 8, 32, 159, 160, 161, 200] {
        let seed = rng.bytes(seed_len);
        for len in lengths() {
            let want = shake_naive(&seed, len);
            for b in Backend::available() {
                // Pre-filled with garbage: every byte must be written.
                let mut got = vec![0xA5u8; len];
                shake128_ctr(b, &seed, &mut got);
                assert!(got == want, "backend {b} seed_len {seed_len} len {len}");
            }
        }
    }
}

#[test]
fn shake128_ctr_prefix_consistent() {
    // A shorter request is a prefix of a longer one (no length-dependent output).
    let seed = [7u8; 16];
    for b in Backend::available() {
        let mut long = vec![0u8; 168 * 20];
        shake128_ctr(b, &seed, &mut long);
        for len in [1, 100, 168 * 8, 168 * 13 + 5] {
            let mut short = vec![0u8; len];
            shake128_ctr(b, &seed, &mut short);
            assert_eq!(short[..], long[..len], "backend {b} len {len}");
        }
    }
}

fn hex16(s: &str) -> [u8; 16] {
    hex::decode(s).unwrap().try_into().unwrap()
}

/// (key, plaintext, ciphertext): FIPS 197 Appendix B and C.1, and the four blocks of
/// SP 800-38A F.1.1 (ECB-AES128).
const VECTORS: &[(&str, &str, &str)] = &[
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "3243f6a8885a308d313198a2e0370734",
        "3925841d02dc09fbdc118597196a0b32",
    ),
    (
        "000102030405060708090a0b0c0d0e0f",
        "00112233445566778899aabbccddeeff",
        "69c4e0d86a7b0430d8cdb78070b4c55a",
    ),
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "6bc1bee22e409f96e93d7e117393172a",
        "3ad77bb40d7a3660a89ecaf32466ef97",
    ),
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "ae2d8a571e03ac9c9eb76fac45af8e51",
        "f5d3d58503b9699de785895a96fdbaaf",
    ),
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "30c81c46a35ce411e5fbc1191a0a52ef",
        "43b1cd7f598ece23881b00e3ed030688",
    ),
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "f69f2445df4f9b17ad2b417be66c3710",
        "7b0c785e27e8ad3f8223207104725dd4",
    ),
];

#[test]
fn fips197_vectors_every_engine() {
    for e in Engine::available() {
        for (k, p, c) in VECTORS {
            let aes = Aes128::with_engine(e, &hex16(k)).expect("available engine");
            assert_eq!(aes.engine(), e);
            // Single block, and the same block in every slot of a multi-block call.
            let mut one = [hex16(p)];
            aes.encrypt_blocks(&mut one);
            assert_eq!(one[0], hex16(c), "engine {e} key {k}");
            let mut many = [hex16(p); 9];
            aes.encrypt_blocks(&mut many);
            assert!(many.iter().all(|b| *b == hex16(c)), "engine {e} key {k} x9");
        }
    }
}

#[test]
fn fips197_key_expansion_every_engine() {
    // FIPS 197 Appendix A.1: w[40..44] (round key 10), and w[4..8] (round key 1).
    let key = hex16("2b7e151628aed2a6abf7158809cf4f3c");
    for e in Engine::available() {
        let aes = Aes128::with_engine(e, &key).unwrap();
        let rk = aes.round_keys();
        assert_eq!(rk[0], key);
        assert_eq!(
            rk[1],
            hex16("a0fafe1788542cb123a339392a6c7605"),
            "engine {e}"
        );
        assert_eq!(
            rk[10],
            hex16("d014f9a8c9ee2589e13f0cc8b6630ca6"),
            "engine {e}"
        );
    }
    // And all engines agree on random keys.
    let mut rng = XorShift(0x5EED_0002);
    for _ in 0..64 {
        let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
        let want = *Aes128::with_engine(Engine::Bitsliced, &key)
            .unwrap()
            .round_keys();
        for e in Engine::available() {
            assert_eq!(
                *Aes128::with_engine(e, &key).unwrap().round_keys(),
                want,
                "{e}"
            );
        }
    }
}

/// The CTR keystream with the `aes` crate: block i = AES_k(0¹² ‖ BE32(ctr0 + i)).
fn ctr_reference(key: &[u8; 16], ctr0: u32, len: usize) -> Vec<u8> {
    let c = aes::Aes128::new(key.into());
    let mut out = vec![0u8; len];
    for (i, chunk) in out.chunks_mut(16).enumerate() {
        let mut blk = [0u8; 16];
        blk[12..].copy_from_slice(&ctr0.wrapping_add(i as u32).to_be_bytes());
        let mut g = aes::Block::from(blk);
        c.encrypt_block(&mut g);
        chunk.copy_from_slice(&g[..chunk.len()]);
    }
    out
}

fn ctr_lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=80).collect();
    for k in [7usize, 8, 9, 15, 16, 17, 31, 32, 33, 64] {
        v.extend([16 * k - 1, 16 * k, 16 * k + 1, 16 * k + 7]);
    }
    v.extend([39960, 40000]);
    v
}

#[test]
fn aes128_ctr_matches_aes_crate_every_backend() {
    let mut rng = XorShift(0x5EED_0003);
    for len in ctr_lengths() {
        let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
        let want = ctr_reference(&key, 0, len);
        for b in Backend::available() {
            let mut got = vec![0x5Au8; len];
            aes128_ctr(b, &key, &mut got);
            assert!(got == want, "backend {b} len {len}");
        }
    }
}

#[test]
fn aes_ctr_matches_aes_crate_every_engine_and_offset() {
    let mut rng = XorShift(0x5EED_0004);
    // Offsets include the 32-bit wrap (the counter is mod 2^32).
    for ctr0 in [0u32, 1, 5, 0xFFFF_FFF0, 0xFFFF_FFFF] {
        for len in [1usize, 16, 100, 128, 255, 256, 257, 1000] {
            let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
            let want = ctr_reference(&key, ctr0, len);
            for e in Engine::available() {
                let aes = Aes128::with_engine(e, &key).unwrap();
                let mut got = vec![0u8; len];
                aes.ctr(ctr0, &mut got);
                assert!(got == want, "engine {e} ctr0 {ctr0:#x} len {len}");
            }
        }
    }
}

#[test]
fn aes_ecb_matches_aes_crate_every_engine() {
    let mut rng = XorShift(0x5EED_0005);
    for n in [1usize, 3, 4, 5, 8, 17] {
        let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
        let blocks: Vec<[u8; 16]> = (0..n).map(|_| rng.bytes(16).try_into().unwrap()).collect();
        let c = aes::Aes128::new((&key).into());
        let want: Vec<[u8; 16]> = blocks
            .iter()
            .map(|b| {
                let mut g = aes::Block::from(*b);
                c.encrypt_block(&mut g);
                g.into()
            })
            .collect();
        for e in Engine::available() {
            let mut got = blocks.clone();
            Aes128::with_engine(e, &key)
                .unwrap()
                .encrypt_blocks(&mut got);
            assert_eq!(got, want, "engine {e} n {n}");
        }
    }
}

#[test]
fn engine_for_backend_is_available_and_as_documented() {
    eprintln!(
        "backends {:?}, AES engines {:?}",
        Backend::available().collect::<Vec<_>>(),
        Engine::available().collect::<Vec<_>>()
    );
    for b in Backend::available() {
        let e = Engine::for_backend(b);
        assert!(e.is_available(), "{b} -> {e}");
        let want = match b {
            Backend::Portable => Engine::Bitsliced,
            Backend::Avx2 if Engine::AesNi.is_available() => Engine::AesNi,
            Backend::Avx512 if Engine::Vaes.is_available() => Engine::Vaes,
            Backend::Avx512 if Engine::AesNi.is_available() => Engine::AesNi,
            Backend::Neon if Engine::Armv8.is_available() => Engine::Armv8,
            _ => Engine::Bitsliced,
        };
        assert_eq!(e, want, "backend {b}");
        assert_eq!(Aes128::new(b, &[0; 16]).engine(), want);
    }
    // Unavailable engines are refused, not silently replaced.
    for &e in Engine::ALL {
        assert_eq!(Aes128::with_engine(e, &[0; 16]).is_some(), e.is_available());
    }
}

#[test]
fn all_backends_identical_snova_sizes() {
    // SNOVA_I_S and SNOVA_V_S public-stream sizes: m1·(v²+2vo)·l²/2.
    let sizes = [
        5 * (27 * 27 + 2 * 27 * 5) * 16 / 2,
        6 * (40 * 40 + 2 * 40 * 6) * 25 / 2,
    ];
    assert_eq!(sizes[0], 39960);
    let mut rng = XorShift(0x5EED_0006);
    for len in sizes {
        let seed: [u8; 16] = rng.bytes(16).try_into().unwrap();
        let mut shake_ref = vec![0u8; len];
        let mut aes_ref = vec![0u8; len];
        shake128_ctr(Backend::Portable, &seed, &mut shake_ref);
        aes128_ctr(Backend::Portable, &seed, &mut aes_ref);
        assert_eq!(shake_ref, shake_naive(&seed, len));
        assert_eq!(aes_ref, ctr_reference(&seed, 0, len));
        for b in Backend::available() {
            let mut s = vec![0u8; len];
            let mut a = vec![0u8; len];
            shake128_ctr(b, &seed, &mut s);
            aes128_ctr(b, &seed, &mut a);
            assert!(s == shake_ref, "shake backend {b} len {len}");
            assert!(a == aes_ref, "aes backend {b} len {len}");
        }
    }
}

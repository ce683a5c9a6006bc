//! TSC ticks (rdtsc, medians) of round-3 Falcon verification and its parts, next to
//! fn-dsa 0.4.0's FN-DSA verification, in the same process.
//!
//! Run: `cargo run -p pqsig --release --example falcon_ticks` (x86-64 only).
//!
//! Units take turns in rounds (warm-up samples, then timed ones; each sample is one
//! operation on the next of 16 messages), so clock changes fall on all of them alike.
//! rdtsc counts reference (TSC) ticks, not core cycles. Columns: median ticks, then µs at
//! the TSC frequency estimated against `Instant`.

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use fn_dsa::{
        KeyPairGenerator, KeyPairGeneratorStandard, SigningKey as _, SigningKeyStandard,
        VerifyingKey as _, VerifyingKeyStandard, DOMAIN_NONE, HASH_ID_RAW,
    };
    use pqsig::falcon::{ParamSet, VerifyingKey};
    use pqsig::kernels::falcon::ntt;
    use pqsig::kernels::internals::falcon::{codec, hash, verify};
    use pqsig::kernels::keccak::f1600;
    use pqsig::kernels::keccak::sponge::Shake256;
    use pqsig::Backend;
    use std::hint::black_box;
    use std::time::Instant;

    const MSGS: usize = 16;
    const ROUNDS: usize = 30;
    const PER_ROUND: usize = 200;
    const WARMUP: usize = 20;

    /// A xorshift generator standing in for the OS RNG (benchmark data only).
    struct Xs(u64);
    impl Xs {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }
    impl fn_dsa::RngCore for Xs {
        fn next_u32(&mut self) -> u32 {
            self.next() as u32
        }
        fn next_u64(&mut self) -> u64 {
            self.next()
        }
        fn fill_bytes(&mut self, d: &mut [u8]) {
            for b in d {
                *b = self.next() as u8;
            }
        }
        fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), fn_dsa::RngError> {
            self.fill_bytes(d);
            Ok(())
        }
    }
    impl fn_dsa::CryptoRng for Xs {}

    // TSC frequency estimate.
    // SAFETY: rdtsc exists on every x86-64 CPU and touches no memory.
    let (i0, t0) = (Instant::now(), unsafe { _rdtsc() });
    std::thread::sleep(std::time::Duration::from_millis(50));
    // SAFETY: rdtsc exists on every x86-64 CPU and touches no memory.
    let (i1, t1) = (Instant::now(), unsafe { _rdtsc() });
    let ghz = (t1 - t0) as f64 / (i1 - i0).as_nanos() as f64;

    type Unit<'a> = (String, Box<dyn FnMut(usize) + 'a>);

    fn run(units: &mut [Unit<'_>], ghz: f64) {
        let mut t = vec![Vec::with_capacity(ROUNDS * PER_ROUND); units.len()];
        for r in 0..ROUNDS {
            for k in 0..units.len() {
                let u = (k + r) % units.len();
                let f = &mut units[u].1;
                for s in 0..WARMUP + PER_ROUND {
                    // SAFETY: rdtsc is available on every x86-64 CPU.
                    let a = unsafe { _rdtsc() };
                    f(s % MSGS);
                    // SAFETY: as above.
                    let b = unsafe { _rdtsc() };
                    if s >= WARMUP {
                        t[u].push(b - a);
                    }
                }
            }
        }
        for (u, tu) in units.iter().zip(t.iter_mut()) {
            tu.sort_unstable();
            let m = tu[tu.len() / 2];
            println!(
                "  {:<40} {:>8} ticks {:>8.2} µs",
                u.0,
                m,
                m as f64 / ghz / 1000.0
            );
        }
    }

    let mut rng = Xs(0x1234_5678_9abc_def1);
    for (ps, logn) in [(ParamSet::Falcon512, 9u32), (ParamSet::Falcon1024, 10)] {
        let n = 1usize << logn;
        let seed: Vec<u8> = (0..48).map(|i| i as u8 ^ logn as u8).collect();
        let (sk, vk) = pqsig::falcon::keygen_from_seed(ps, &seed).unwrap();
        let pk = vk.to_bytes().to_vec();
        let msgs: Vec<Vec<u8>> = (0..MSGS)
            .map(|i| (0..32).map(|j| (i * 31 + j) as u8).collect())
            .collect();
        let sigs: Vec<Vec<u8>> = msgs
            .iter()
            .enumerate()
            .map(|(i, m)| {
                sk.sign_with_nonce_and_seed(m, &[i as u8; 40], &[7u8; 48])
                    .unwrap()
            })
            .collect();
        let dec: Vec<codec::Signature> = sigs
            .iter()
            .map(|s| codec::decode_signature(s, false).unwrap())
            .collect();
        let mut c0s = vec![vec![0u16; n]; MSGS];
        for (c, (d, m)) in c0s.iter_mut().zip(dec.iter().zip(msgs.iter())) {
            hash::hash_to_point_msg(&d.nonce, m, c);
        }

        // fn-dsa on its own keys.
        let mut fsk = vec![0u8; fn_dsa::sign_key_size(logn)];
        let mut fvk = vec![0u8; fn_dsa::vrfy_key_size(logn)];
        KeyPairGeneratorStandard::default().keygen(logn, &mut rng, &mut fsk, &mut fvk);
        let mut fsk = SigningKeyStandard::decode(&fsk).unwrap();
        let fvkd = VerifyingKeyStandard::decode(&fvk).unwrap();
        let fsigs: Vec<Vec<u8>> = msgs
            .iter()
            .map(|m| {
                let mut s = vec![0u8; fn_dsa::signature_size(logn)];
                fsk.sign(&mut rng, &DOMAIN_NONE, &HASH_ID_RAW, m, &mut s);
                s
            })
            .collect();

        println!("{} (n = {n}), TSC {ghz:.3} GHz", ps.name());
        let mut units: Vec<Unit<'_>> = Vec::new();
        units.push((
            "fn-dsa verify (object)".into(),
            Box::new(|i| {
                assert!(fvkd.verify(&fsigs[i], &DOMAIN_NONE, &HASH_ID_RAW, &msgs[i]));
            }),
        ));
        for b in Backend::available() {
            let vkb = VerifyingKey::from_bytes(ps, &pk)
                .unwrap()
                .with_backend(b)
                .unwrap();
            let (msgs, sigs) = (&msgs, &sigs);
            units.push((
                format!("pqsig verify object [{b}]"),
                Box::new(move |i| vkb.verify(&msgs[i], &sigs[i]).unwrap()),
            ));
        }
        {
            let (msgs, sigs, pk) = (&msgs, &sigs, &pk);
            units.push((
                "pqsig verify bytes [active]".into(),
                Box::new(move |i| {
                    VerifyingKey::from_bytes(ps, pk)
                        .and_then(|v| v.verify(&msgs[i], &sigs[i]))
                        .unwrap()
                }),
            ));
        }
        run(&mut units, ghz);
        drop(units);

        println!(" parts:");
        let mut units: Vec<Unit<'_>> = Vec::new();
        {
            let (dec, msgs) = (&dec, &msgs);
            let mut c = vec![0u16; n];
            units.push((
                "hash_to_point_msg".into(),
                Box::new(move |i| {
                    hash::hash_to_point_msg(&dec[i].nonce, &msgs[i], &mut c);
                    black_box(&c);
                }),
            ));
        }
        {
            let mut st = [0u64; 25];
            units.push((
                "keccak_f1600 (portable) x1".into(),
                Box::new(move |_| f1600::keccak_f1600(black_box(&mut st))),
            ));
        }
        {
            let sigs = &sigs;
            units.push((
                "decode_signature_logn".into(),
                Box::new(move |i| {
                    black_box(codec::decode_signature_logn(&sigs[i], logn, false).unwrap());
                }),
            ));
        }
        {
            let sigs = &sigs;
            let mut s2 = vec![0i16; n];
            units.push((
                "comp_decode".into(),
                Box::new(move |i| {
                    black_box(codec::comp_decode(&mut s2, &sigs[i][41..], logn).unwrap());
                }),
            ));
        }
        for b in Backend::available() {
            let k = ntt::kernels(b);
            let key = verify::PreparedPublicKey::from_bytes_with(k, &pk).unwrap();
            let (dec, c0s) = (&dec, &c0s);
            units.push((
                format!("verify_raw [{b}]"),
                Box::new(move |i| {
                    assert!(verify::verify_raw_with(
                        k, &c0s[i], &dec[i].s2, &key.h_ntt, logn
                    ));
                }),
            ));
        }
        for b in Backend::available() {
            let (dec, msgs) = (&dec, &msgs);
            let mut c = vec![0u16; n];
            units.push((
                format!("hash_to_point_msg_on [{b}]"),
                Box::new(move |i| {
                    hash::hash_to_point_msg_on(b, &dec[i].nonce, &msgs[i], &mut c);
                    black_box(&c);
                }),
            ));
        }
        for b in Backend::available() {
            let k = ntt::kernels(b);
            let mut a: Vec<u16> = (0..n).map(|i| (i * 37 % 12289) as u16).collect();
            units.push((
                format!("ntt+intt [{b}]"),
                Box::new(move |_| {
                    (k.ntt)(black_box(&mut a), logn);
                    (k.intt)(black_box(&mut a), logn);
                }),
            ));
        }
        if std::env::var("FALCON_TICKS_KERNELS").is_ok() {
            let k = ntt::kernels(pqsig::backend::active());
            let a: Vec<u16> = (0..n).map(|i| (i * 37 % 12289) as u16).collect();
            let s2: Vec<i16> = (0..n).map(|i| ((i * 37 % 601) as i16) - 300).collect();
            let mut t = a.clone();
            units.push((
                "from_i16".into(),
                Box::new(move |_| (k.from_i16)(black_box(&mut t), &s2)),
            ));
            let (mut t, b) = (a.clone(), a.clone());
            units.push((
                "mul_monty".into(),
                Box::new(move |_| (k.mul_monty)(black_box(&mut t), &b)),
            ));
            let (mut t, b) = (a.clone(), a.clone());
            units.push((
                "sub".into(),
                Box::new(move |_| (k.sub)(black_box(&mut t), &b)),
            ));
            let t = a.clone();
            units.push((
                "sqnorm_centered".into(),
                Box::new(move |_| {
                    black_box((k.sqnorm_centered)(black_box(&t)));
                }),
            ));
            let s2: Vec<i16> = (0..n).map(|i| ((i * 37 % 601) as i16) - 300).collect();
            units.push((
                "sqnorm_i16".into(),
                Box::new(move |_| {
                    black_box((k.sqnorm_i16)(black_box(&s2)));
                }),
            ));
            let mut t = a.clone();
            units.push((
                "ntt".into(),
                Box::new(move |_| (k.ntt)(black_box(&mut t), logn)),
            ));
            let mut t = a.clone();
            units.push((
                "intt".into(),
                Box::new(move |_| (k.intt)(black_box(&mut t), logn)),
            ));
            let mut t = a.clone();
            units.push((
                "to_monty".into(),
                Box::new(move |_| (k.to_monty)(black_box(&mut t))),
            ));
            let pkb = pk.clone();
            units.push((
                "PreparedPublicKey::from_bytes_with".into(),
                Box::new(move |_| {
                    black_box(verify::PreparedPublicKey::from_bytes_with(k, &pkb).unwrap());
                }),
            ));
            let pkb = pk.clone();
            units.push((
                "codec::decode_public_key".into(),
                Box::new(move |_| {
                    black_box(codec::decode_public_key(&pkb).unwrap());
                }),
            ));
        }
        {
            let mut sh = Shake256::new();
            sh.absorb(b"x");
            let mut buf = [0u8; 136 * 8];
            units.push((
                "Shake256 squeeze 8 blocks".into(),
                Box::new(move |_| {
                    sh.squeeze(&mut buf);
                    black_box(&buf);
                }),
            ));
        }
        run(&mut units, ghz);
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("falcon_ticks: x86-64 only");
}

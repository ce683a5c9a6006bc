//! The card end to end: results identical to the CPU kernels through both driver
//! paths, several client processes at once, a client killed mid-request, bad requests.
//!
//! Child processes are this test binary run again with `CARD_TEST_ROLE` set (the
//! `child_role` test does the role's work and exits).

mod common;

use common::{start_card, Rng};
use pqsig::batch::{KernelDevice, TransformMode};
use pqsig_card::client::Conn;
use pqsig_card::regs::{self, Mode, Status};
use pqsig_card::{CardDevice, DriverMode};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn cpu_mldsa(mode: TransformMode, polys: &mut [pqsig::batch::MlDsaPoly]) {
    let k = pqsig::kernels::mldsa::base_kernels(pqsig::backend::active());
    match mode {
        TransformMode::MlDsaNtt => (k.ntt)(polys),
        _ => (k.invntt_tomont)(polys),
    }
}

fn cpu_falcon(mode: TransformMode, a: &mut [u16], logn: u32) {
    let k = pqsig::kernels::falcon::ntt::base_kernels(pqsig::backend::active());
    match mode {
        TransformMode::FalconNtt { .. } => (k.ntt)(a, logn),
        _ => (k.intt)(a, logn),
    }
}

/// Random ML-DSA batches of sizes 1..=256 and Falcon n = 512 / 1024 batches through
/// `dev`, each compared with the CPU kernels.
fn check_identical(dev: &CardDevice, seed: u64, sizes: &[usize]) {
    let mut rng = Rng(seed);
    for &n in sizes {
        for mode in [TransformMode::MlDsaNtt, TransformMode::MlDsaInvNttToMont] {
            let input = rng.mldsa(n);
            let mut want = input.clone();
            cpu_mldsa(mode, &mut want);
            let mut got = input.clone();
            dev.transform_mldsa(mode, &mut got).expect("card answers");
            assert!(
                got == want,
                "{:?} {mode:?} batch {n}: differs from the CPU",
                dev.mode()
            );
        }
    }
    for logn in [9, 10] {
        for n in [1, 3, 17] {
            for mode in [
                TransformMode::FalconNtt { logn },
                TransformMode::FalconIntt { logn },
            ] {
                let input = rng.falcon(n, logn);
                let mut want = input.clone();
                cpu_falcon(mode, &mut want, logn);
                let mut got = input.clone();
                dev.transform_falcon(mode, &mut got).expect("card answers");
                assert!(got == want, "{mode:?} batch {n}: differs from the CPU");
            }
        }
    }
}

#[test]
fn both_modes_match_the_cpu_kernels() {
    let (card, path) = start_card("match", 1000.0);
    let mut sizes = vec![1, 2, 3, 4, 15, 16, 17, 63, 64, 65, 127, 128, 255, 256];
    let mut rng = Rng(99);
    sizes.extend((0..6).map(|_| 1 + rng.below(256) as usize));
    for mode in [DriverMode::Pooled, DriverMode::PerCall] {
        let dev = CardDevice::new(mode, path.clone());
        check_identical(&dev, 1 + mode as u64, &sizes);
        let s = dev.stats();
        assert!(s.calls > 0 && s.requests >= s.calls && s.device_ns > 0);
        assert_eq!(s.e2e_ns, s.host_ns + s.transfer_ns + s.wait_ns);
        assert_eq!(dev.accel(), Some("timed"));
        assert!(dev.last_cycles().is_some_and(|c| c.total > 0));
    }
    // The pooled path had requests in flight together (more requests than calls).
    assert!(card.counters.errors.load(Ordering::Relaxed) == 0);
}

#[test]
fn whole_verify_jobs_on_the_card_match_the_cpu() {
    use pqsig::any::SigningKey;
    use pqsig::batch::{Message, Options, VerifyItem, VerifyKey};
    let (_card, path) = start_card("ops", 1000.0);
    let mut owned = Vec::new();
    for (name, n) in [("ML-DSA-65", 6), ("ML-DSA-44", 3), ("Falcon-512", 2)] {
        let alg = pqsig::Algorithm::from_name(name).unwrap();
        for i in 0..n {
            let sk = SigningKey::from_seed(alg, &vec![i as u8 + 1; alg.seed_len()]).unwrap();
            let msg = vec![i as u8; 33];
            let sig = sk.sign(&msg, b"").unwrap();
            owned.push((alg, sk.verifying_key().to_bytes().to_vec(), msg, sig));
        }
    }
    owned[1].3[7] ^= 1; // fails verification
    owned[4].1.truncate(5); // a malformed key
    let items: Vec<VerifyItem> = owned
        .iter()
        .map(|(alg, pk, msg, sig)| VerifyItem {
            key: VerifyKey::Encoded { alg: *alg, pk },
            message: Message::Raw(msg),
            context: b"",
            signature: sig,
        })
        .collect();
    let want = pqsig::batch::verify_batch(&items);
    let dev = std::sync::Arc::new(pqsig_card::ops_device::CardVerify::new(path));
    let opts = Options {
        device: Some(dev.clone()),
        ..Options::default()
    };
    let got = pqsig::batch::verify_batch_with(&items, &opts);
    assert_eq!(got, want);
    assert!(want[1].is_err() && want[4].is_err() && want[0].is_ok());
    let s = dev.stats();
    assert!(
        s.calls >= 1 && s.polys as usize == items.len(),
        "the card ran it: {s:?}"
    );
    assert!(s.device_ns > 0 && s.e2e_ns >= s.device_ns);
}

#[test]
fn pooled_device_time_follows_the_cycle_model() {
    let (_card, path) = start_card("model", 125.0);
    let dev = CardDevice::new(DriverMode::Pooled, path);
    let mut polys = Rng(5).mldsa(64);
    dev.transform_mldsa(TransformMode::MlDsaNtt, &mut polys)
        .unwrap();
    let b = dev.last_breakdown();
    let model = pqsig_card::CycleModel::default();
    let want: u64 = (0..4)
        .map(|_| model.request(Mode::MlDsaNtt, 16).total)
        .sum();
    assert_eq!(b.requests, 4, "64 polynomials in 4 chunks of 16");
    assert_eq!(b.cycles.total, want);
    // The call cannot be faster than the hardware it models.
    assert!(b.e2e_ns >= b.device_ns, "{b:?}");
}

/// What a child process does (`CARD_TEST_ROLE`); nothing in a normal test run.
#[test]
fn child_role() {
    let Ok(role) = std::env::var("CARD_TEST_ROLE") else {
        return;
    };
    let path = PathBuf::from(std::env::var("CARD_TEST_SOCKET").unwrap());
    match role.as_str() {
        "client" => {
            let seed: u64 = std::env::var("CARD_TEST_SEED").unwrap().parse().unwrap();
            for mode in [DriverMode::Pooled, DriverMode::PerCall] {
                let dev = CardDevice::new(mode, path.clone());
                check_identical(&dev, seed, &[1, 7, 64, 200]);
            }
        }
        "hang" => {
            // A long request (1024 polynomials), then wait to be killed.
            let mut c = Conn::connect(&path).unwrap();
            let input = Rng(3).mldsa(regs::MAX_POLYS as usize / 2);
            let bytes: Vec<u8> = input
                .iter()
                .flat_map(|p| p.coeffs.iter().flat_map(|c| c.to_le_bytes()))
                .collect();
            c.window_write(0, &bytes);
            c.submit(0, 0, 0, Mode::MlDsaNtt.encode(), 512);
            std::fs::write(std::env::var("CARD_TEST_MARK").unwrap(), b"x").unwrap();
            std::thread::sleep(Duration::from_secs(60));
        }
        _ => panic!("unknown role"),
    }
}

fn child(role: &str, socket: &Path, extra: &[(&str, String)]) -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child_role", "--test-threads=1", "--quiet"])
        .env("CARD_TEST_ROLE", role)
        .env("CARD_TEST_SOCKET", socket)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd
}

#[test]
fn two_client_processes_share_the_card() {
    let (card, path) = start_card("two", 1000.0);
    let kids: Vec<_> = (0..2)
        .map(|i| {
            child(
                "client",
                &path,
                &[("CARD_TEST_SEED", (100 + i).to_string())],
            )
            .spawn()
            .unwrap()
        })
        .collect();
    // This process is a third client meanwhile.
    check_identical(
        &CardDevice::new(DriverMode::Pooled, path.clone()),
        7,
        &[5, 33],
    );
    for k in kids {
        let out = k.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "client process failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(
        card.counters.clients.load(Ordering::Relaxed) >= 5,
        "2 × 2 devices + 1"
    );
    assert_eq!(card.counters.errors.load(Ordering::Relaxed), 0);
}

#[test]
fn a_client_killed_mid_request_leaves_the_card_serving() {
    // 2 MHz: the dying client's 512-polynomial request takes ~140 ms of device time.
    let (card, path) = start_card("kill", 2.0);
    let mark = common::socket_path("mark");
    let mut kid = child(
        "hang",
        &path,
        &[("CARD_TEST_MARK", mark.display().to_string())],
    )
    .spawn()
    .unwrap();
    let t = Instant::now();
    while !mark.exists() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "child never submitted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(20)); // the card is inside the request now
    kid.kill().unwrap();
    kid.wait().unwrap();
    let _ = std::fs::remove_file(&mark);
    // Another client is served, correctly, after the dead one's request.
    let dev = CardDevice::new(DriverMode::Pooled, path.clone());
    let mut rng = Rng(11);
    let input = rng.mldsa(3);
    let mut want = input.clone();
    cpu_mldsa(TransformMode::MlDsaNtt, &mut want);
    let mut got = input;
    dev.transform_mldsa(TransformMode::MlDsaNtt, &mut got)
        .unwrap();
    assert!(got == want);
    // The dead client's state is dropped.
    let t = Instant::now();
    while card.counters.live_clients.load(Ordering::Relaxed) > 1 {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "dead client still counted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn bad_requests_get_an_error_status() {
    let (card, path) = start_card("bad", 1000.0);
    let mut c = Conn::connect(&path).unwrap();
    let ml = Mode::MlDsaNtt.encode();
    let win = regs::WINDOW_LEN as u64;
    let cases: &[(&str, u32, u64, u32, u32, Status)] = &[
        ("unknown mode", 0, 0, 77, 1, Status::BadMode),
        ("falcon logn 11", 0, 0, 3 | (11 << 8), 1, Status::BadMode),
        ("falcon logn 0", 0, 0, 3, 1, Status::BadMode),
        (
            "too many polys",
            0,
            0,
            ml,
            regs::MAX_POLYS + 1,
            Status::TooManyPolys,
        ),
        ("u32::MAX polys", 0, 0, ml, u32::MAX, Status::TooManyPolys),
        ("past the window", 0, win - 1024, ml, 2, Status::BadRange),
        ("offset overflow", 0, u64::MAX - 3, ml, 1, Status::BadRange),
        ("misaligned", 0, 2, ml, 1, Status::BadRange),
        ("unknown region", 9, 0, ml, 1, Status::BadRange),
    ];
    for (slot, &(what, region, offset, mode, n, want)) in cases.iter().enumerate() {
        let slot = slot % regs::SLOTS;
        let seq = c.submit(slot, region, offset, mode, n);
        let got = c.wait(slot, seq, Duration::from_secs(1)).unwrap();
        assert_eq!(got.status(), want, "{what}");
    }
    // Out-of-bound input coefficients.
    c.window_write(0, &[0xff; 1024]); // -1: fine
    c.window_write(1024, &i32::MAX.to_le_bytes());
    let seq = c.submit(0, 0, 0, ml, 2);
    assert_eq!(
        c.wait(0, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadData
    );
    c.window_write(0, &[0xff; 2]);
    let seq = c.submit(1, 0, 0, Mode::FalconNtt(9).encode(), 1);
    assert_eq!(
        c.wait(1, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadData
    );
    // A per-call buffer: in range works, past its end does not, freed is gone.
    let (id, buf) = c.alloc(2048).unwrap();
    buf.write(0, &[0u8; 2048]);
    let seq = c.submit(2, id, 1024, ml, 1);
    assert_eq!(
        c.wait(2, seq, Duration::from_secs(1)).unwrap().status(),
        Status::Ok
    );
    let seq = c.submit(2, id, 1024, ml, 2);
    assert_eq!(
        c.wait(2, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadRange
    );
    drop(buf);
    c.free(id).unwrap();
    assert!(c.free(id).is_err(), "double free refused");
    let seq = c.submit(2, id, 0, ml, 1);
    assert_eq!(
        c.wait(2, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadRange
    );
    assert!(
        c.alloc(0).is_err() && c.alloc(1 << 40).is_err(),
        "silly sizes refused"
    );
    // Malformed whole-operation jobs.
    let (id, buf) = c.alloc(64).unwrap();
    buf.write(0, &[1, 0, 0, 0, 99, 0, 0, 0]); // one item of algorithm 99
    let seq = c.submit(0, id, 0, Mode::Verify.encode(), 1);
    assert_eq!(
        c.wait(0, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadData
    );
    buf.write(0, &[1, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]); // a length past the end
    let seq = c.submit(0, id, 0, Mode::Verify.encode(), 1);
    assert_eq!(
        c.wait(0, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadData
    );
    let seq = c.submit(0, id, 0, Mode::Verify.encode(), 2); // count mismatch
    assert_eq!(
        c.wait(0, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadData
    );
    let seq = c.submit(0, id, 64, Mode::Verify.encode(), 1); // offset at the end
    assert_eq!(
        c.wait(0, seq, Duration::from_secs(1)).unwrap().status(),
        Status::BadRange
    );
    let seq = c.submit(0, id, 0, Mode::Verify.encode(), 5000);
    assert_eq!(
        c.wait(0, seq, Duration::from_secs(1)).unwrap().status(),
        Status::TooManyPolys
    );
    drop(buf);
    c.free(id).unwrap();
    // A no-op round trip (the doorbell latency probe) is fine.
    let seq = c.submit(3, 0, 0, Mode::Nop.encode(), 0);
    assert_eq!(
        c.wait(3, seq, Duration::from_secs(1)).unwrap().status(),
        Status::Ok
    );
    // Garbage on the control socket: the card drops that client only.
    {
        use std::io::Write;
        let mut s = std::os::unix::net::UnixStream::connect(&path).unwrap();
        let _ = s.write_all(&[0xAB; 7]);
        let _ = s.write_all(&[0xCD; 40]);
    }
    // And still serves, correctly.
    check_identical(&CardDevice::new(DriverMode::Pooled, path.clone()), 4, &[2]);
    assert!(card.counters.errors.load(Ordering::Relaxed) >= cases.len() as u64);
}

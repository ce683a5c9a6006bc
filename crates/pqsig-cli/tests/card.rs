//! `pqsig card` and the `card` / `card-per-call` devices from outside: the command
//! line contract of the offload path (a card in the foreground until SIGTERM, the
//! devices listed when PQSIG_CARD names it, bench rows with the card breakdown, signing
//! on the card byte-identical, `rtl` refused cleanly in a build without it).

mod common;

use common::{code, pqsig, run_cmd, stdout, TempDir};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `pqsig card` child process, killed on drop if still running.
struct CardProc(Option<Child>);

impl CardProc {
    fn start(socket: &std::path::Path) -> CardProc {
        let child = pqsig()
            .args([
                "card",
                "--accel",
                "timed",
                "--clock-mhz",
                "1000",
                "--socket",
            ])
            .arg(socket)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let t = Instant::now();
        while !socket.exists() {
            assert!(t.elapsed() < Duration::from_secs(20), "card never listened");
            std::thread::sleep(Duration::from_millis(10));
        }
        CardProc(Some(child))
    }

    /// SIGTERM, then the card's exit status and stderr.
    fn stop(mut self) -> (i32, String) {
        let child = self.0.take().unwrap();
        let killed = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

impl Drop for CardProc {
    fn drop(&mut self) {
        if let Some(mut c) = self.0.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn with_card(socket: &std::path::Path) -> Command {
    let mut c = pqsig();
    c.env("PQSIG_CARD", socket);
    c
}

#[test]
fn rtl_needs_the_hw_sim_build() {
    let dir = TempDir::new("card-rtl");
    let out = run_cmd(
        pqsig(),
        &[
            "card",
            "--accel",
            "rtl",
            "--socket",
            dir.path("s").to_str().unwrap(),
        ],
    );
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("hw-sim"));
    assert!(!dir.path("s").exists());
}

#[test]
fn card_devices_bench_rows_and_signing() {
    let dir = TempDir::new("card");
    let sock = dir.path("card.sock");
    let card = CardProc::start(&sock);

    // Listed only with PQSIG_CARD; --device card without it says what is missing.
    let listed = stdout(&run_cmd(with_card(&sock), &["device", "list"]));
    assert!(listed.lines().any(|l| l.starts_with("card ")), "{listed}");
    assert!(
        listed.lines().any(|l| l.starts_with("card-verify ")),
        "{listed}"
    );
    assert!(
        listed.lines().any(|l| l.starts_with("card-per-call ")),
        "{listed}"
    );
    let plain = stdout(&run_cmd(pqsig(), &["device", "list"]));
    assert!(!plain.contains("card"));
    let out = run_cmd(pqsig(), &["--device", "card", "device", "list"]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("PQSIG_CARD"));

    // Bench rows: every op, both modes, the breakdown fields.
    for (dev, mode) in [("card", "pooled"), ("card-per-call", "per-call")] {
        let out = run_cmd(
            with_card(&sock),
            &[
                "--device",
                dev,
                "--backend",
                "portable",
                "bench",
                "--alg",
                "ML-DSA-44",
                "--batch",
                "4",
                "--json",
                "--iters",
                "2",
                "--time",
                "0.05",
            ],
        );
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        let rows: Vec<serde_json::Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .filter(|r: &serde_json::Value| r["type"] == "batch")
            .collect();
        for op in ["ntt", "intt", "verify_batch", "sign_batch"] {
            let r = rows
                .iter()
                .find(|r| r["op"] == op)
                .unwrap_or_else(|| panic!("{dev}: no {op} row"));
            assert_eq!(r["device"], dev);
            assert_eq!(r["device_mode"], mode, "{r}");
            assert_eq!(r["accel"], "timed");
            for f in ["host_ns", "transfer_ns", "wait_ns", "device_ns"] {
                assert!(
                    r[f].as_f64().is_some_and(|v| v >= 0.0),
                    "{dev} {op}: {f} in {r}"
                );
            }
            assert!(r["device_ns"].as_f64().unwrap() > 0.0, "{r}");
            let o = r["overhead_frac"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&o), "{r}");
        }
    }

    // Whole verification jobs on the card: verify_batch rows in device_mode whole-op.
    let out = run_cmd(
        with_card(&sock),
        &[
            "--device",
            "card-verify",
            "--backend",
            "portable",
            "bench",
            "--alg",
            "ML-DSA-44",
            "--batch",
            "4",
            "--op",
            "verify_batch",
            "--json",
            "--iters",
            "2",
            "--time",
            "0.05",
        ],
    );
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let row = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["op"] == "verify_batch")
        .expect("a verify_batch row");
    assert_eq!(row["device_mode"], "whole-op", "{row}");
    assert!(row["device_ns"].as_f64().unwrap() > 0.0, "{row}");

    // Signing on the card (deterministic) is byte-identical to the CPU's.
    let seed = "00".repeat(32);
    let (pk, sk, msg) = (
        dir.path("pk"),
        dir.path("sk"),
        dir.write("msg", b"signed on the card"),
    );
    let out = run_cmd(
        pqsig(),
        &[
            "keygen",
            "--alg",
            "ML-DSA-65",
            "--format",
            "raw",
            "--seed",
            &seed,
            "--pk",
            pk.to_str().unwrap(),
            "--sk",
            sk.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let sign = |device: &str, out_name: &str| {
        let sig = dir.path(out_name);
        let out = run_cmd(
            with_card(&sock),
            &[
                "--device",
                device,
                "sign",
                "--alg",
                "ML-DSA-65",
                "--deterministic",
                "--sk",
                sk.to_str().unwrap(),
                "--in",
                msg.to_str().unwrap(),
                "--out",
                sig.to_str().unwrap(),
            ],
        );
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read(sig).unwrap()
    };
    let cpu = sign("cpu", "cpu.sig");
    assert_eq!(sign("card", "card.sig"), cpu);
    assert_eq!(sign("card-per-call", "pc.sig"), cpu);
    let out = run_cmd(
        with_card(&sock),
        &[
            "--device",
            "card",
            "verify",
            "--alg",
            "ML-DSA-65",
            "--pk",
            pk.to_str().unwrap(),
            "--in",
            msg.to_str().unwrap(),
            "--sig",
            dir.path("card.sig").to_str().unwrap(),
        ],
    );
    assert_eq!(code(&out), 0);

    // SIGTERM: a clean stop, counters printed, socket removed.
    let (status, err) = card.stop();
    assert_eq!(status, 0, "{err}");
    assert!(
        err.contains("stopped") && !err.contains(" 0 requests"),
        "{err}"
    );
    assert!(!sock.exists());
}

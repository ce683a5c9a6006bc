//! `pqsig card --ivshmem FILE` from outside: the card serves a shared file the way it
//! serves QEMU's ivshmem memory (hw/linux/run.sh), and `--socket` / `--ivshmem` are
//! one or the other.

mod common;

use common::{code, pqsig, run_cmd, TempDir};
use pqsig_card::regs::{self, Mode, RegPage, Status};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[test]
fn serves_a_request_written_into_the_file_as_the_driver_does() {
    let dir = TempDir::new("card-ivshmem");
    let file = dir.path("shm");
    let child = pqsig()
        .args([
            "card",
            "--accel",
            "timed",
            "--clock-mhz",
            "1000",
            "--ivshmem",
        ])
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::metadata(&file).map_or(true, |m| m.len() < 4 << 20) {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "card never mapped the file"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let guest = pqsig_card::ivshmem::map_file(&file).unwrap();
    // SAFETY: the mapping is 4 MiB, page aligned; RegPage is all atomics.
    let r = unsafe { &*(guest.as_ptr() as *const RegPage) };
    while r.header.magic.load(Ordering::Acquire) != regs::MAGIC {
        assert!(t.elapsed() < Duration::from_secs(20), "no header");
        std::thread::sleep(Duration::from_millis(10));
    }
    let s = &r.slots[0];
    let mut seq = s.start.load(Ordering::Relaxed);
    let mut request = |mode: u32, first: i32| {
        let poly: Vec<u8> = (0..256)
            .flat_map(|i: i32| (first + i).to_le_bytes())
            .collect();
        assert!(guest.write(regs::WINDOW_OFFSET, &poly));
        s.region.store(0, Ordering::Relaxed);
        s.offset.store(0, Ordering::Relaxed);
        s.mode.store(mode, Ordering::Relaxed);
        s.num_polys.store(1, Ordering::Relaxed);
        s.rung_ns.store(0, Ordering::Relaxed);
        seq = seq.wrapping_add(1);
        s.start.store(seq, Ordering::SeqCst);
        let t = Instant::now();
        while s.done.load(Ordering::Acquire) != seq {
            assert!(t.elapsed() < Duration::from_secs(20), "no completion");
            std::thread::sleep(Duration::from_micros(50));
        }
        Status::from_u32(s.status.load(Ordering::Relaxed))
    };
    assert_eq!(request(Mode::MlDsaNtt.encode(), -100), Status::Ok);
    assert_eq!(request(77, 0), Status::BadMode);
    assert_eq!(request(Mode::MlDsaNtt.encode(), 8_380_417), Status::BadData);
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("on ivshmem"), "{err}");
    assert!(err.contains("3 requests"), "{err}");
    assert!(err.contains("2 errors"), "{err}");
}

#[test]
fn socket_and_ivshmem_are_one_or_the_other() {
    let dir = TempDir::new("card-ivshmem-args");
    let both = run_cmd(
        pqsig(),
        &[
            "card",
            "--accel",
            "timed",
            "--socket",
            dir.path("s").to_str().unwrap(),
            "--ivshmem",
            dir.path("f").to_str().unwrap(),
        ],
    );
    assert_eq!(code(&both), 2);
    let neither = run_cmd(pqsig(), &["card", "--accel", "timed"]);
    assert_eq!(code(&neither), 2);
}

#[test]
fn ntt_hw_devices_exist_only_with_the_driver() {
    let list = run_cmd(pqsig(), &["device", "list"]);
    let text = String::from_utf8_lossy(&list.stdout);
    let present = std::path::Path::new(pqsig_card::ntt_hw::DEV_PATH).exists();
    assert_eq!(text.contains("ntt-hw "), present, "{text}");
    if !present {
        let out = run_cmd(pqsig(), &["--device", "ntt-hw", "list"]);
        assert_eq!(code(&out), 2, "an unknown device is a usage error");
    }
}

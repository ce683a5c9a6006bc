//! `pqsig serve`: configuration errors exit 2 with one line; a real start answers
//! /healthz on loopback and SIGTERM stops it cleanly (exit 0).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

fn pqsig() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pqsig"));
    c.env_remove("PQSIG_KEK");
    c
}

#[track_caller]
fn fails_with_one_line(args: &[&str], needle: &str) {
    let dir = tempfile_dir();
    let out = pqsig().args(args).current_dir(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line expected: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    let _ = std::fs::remove_dir_all(dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!(
        "pqsig-serve-test-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

#[test]
fn bad_configuration_exits_2_with_one_line() {
    fails_with_one_line(&["serve"], "key-encryption key");
    fails_with_one_line(
        &["serve", "--insecure-dev-key", "--listen", "nope"],
        "--listen",
    );
    fails_with_one_line(
        &["serve", "--config", "/nonexistent/server.toml"],
        "cannot read config",
    );
    fails_with_one_line(
        &["serve", "--kek-file", "/nonexistent/kek"],
        "key-encryption key",
    );
    let dir = tempfile_dir();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "bogus = 1\n").unwrap();
    fails_with_one_line(
        &[
            "serve",
            "--insecure-dev-key",
            "--config",
            bad.to_str().unwrap(),
        ],
        "unknown field",
    );
    std::fs::write(
        &bad,
        "[[token]]\nname = \"x\"\ntoken = \"t\"\nkeys = [\"*\"]\noperations = [\"fly\"]\n",
    )
    .unwrap();
    fails_with_one_line(
        &[
            "serve",
            "--insecure-dev-key",
            "--config",
            bad.to_str().unwrap(),
        ],
        "unknown operation",
    );
    let kek = dir.join("kek");
    std::fs::write(&kek, [7u8; 32]).unwrap();
    fails_with_one_line(
        &[
            "serve",
            "--insecure-dev-key",
            "--kek-file",
            kek.to_str().unwrap(),
        ],
        "cannot be combined",
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn serves_healthz_and_stops_on_sigterm() {
    let dir = tempfile_dir();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = pqsig()
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--db",
            "k.db",
        ])
        .env("PQSIG_KEK", "00".repeat(32))
        .current_dir(&dir)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the "listening" line.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("listening on http://127.0.0.1:"), "{line}");
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    assert!(resp.contains("\"status\":\"ok\""), "{resp}");
    assert!(
        dir.join("k.db").exists(),
        "SQLite file created on first run"
    );
    let st = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

//! Helpers shared by the CLI test files: temp dirs, running the binary, exit-code checks.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "pqsig-cli2-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub fn write(&self, name: &str, data: &[u8]) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, data).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn pqsig() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pqsig"))
}

/// Runs `cmd` with `args` (stdin empty) and checks what every run must keep: an exit code
/// in {0, 1, 2}, no panic, no internal error.
pub fn run_cmd(mut cmd: Command, args: &[&str]) -> Output {
    cmd.args(args);
    let out = cmd.stdin(Stdio::null()).output().expect("spawn pqsig");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "pqsig {args:?} panicked: {err}");
    assert!(!err.contains("internal error"), "pqsig {args:?}: {err}");
    let code = out.status.code().expect("terminated by a signal");
    assert!(
        (0..=2).contains(&code),
        "pqsig {args:?} exited {code}: {err}"
    );
    out
}

pub fn run(args: &[&str]) -> Output {
    run_cmd(pqsig(), args)
}

/// Runs `pqsig args` with `input` on its standard input.
pub fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = pqsig()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    // Write from a thread: the child may exit (or fill its stdout) before reading it all.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

pub fn code(out: &Output) -> i32 {
    out.status.code().unwrap()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Asserts exit code `want` with a one-line `pqsig: ...` message containing every needle.
pub fn assert_one_line(out: &Output, want: i32, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(code(out), want, "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "expected one line, got: {err}");
    assert!(err.starts_with("pqsig: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{err:?} does not mention {n:?}");
    }
}

/// `keygen --seed` (raw files) into `dir`; returns (pk path, sk path).
pub fn keygen(dir: &TempDir, alg: &str, seed: u8) -> (PathBuf, PathBuf) {
    let a = pqsig::Algorithm::from_name(alg).unwrap();
    let pk = dir.path(&format!("{alg}-{seed}.pk"));
    let sk = dir.path(&format!("{alg}-{seed}.sk"));
    let seed = hex::encode(vec![seed; a.seed_len()]);
    let out = run(&[
        "keygen",
        "--format",
        "raw",
        "--alg",
        alg,
        "--seed",
        &seed,
        "--pk",
        s(&pk),
        "--sk",
        s(&sk),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    (pk, sk)
}

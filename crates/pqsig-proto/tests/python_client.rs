//! examples/proto_client.py (standard-library Python) against the Rust listener over TCP
//! and the Unix socket: sign, verify by id and with an inline key, invalid signatures,
//! wrong token, unknown key. Without python3 the test says SKIPPED, except under CI
//! (`CI` set) or with `PQSIG_REQUIRE_PYTHON=1`, where it fails.

mod common;

use common::{key, keymap, TestServer, KEYS, TOKEN};
use pqsig_proto::server::ServerConfig;
use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> Option<&'static str> {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some("python3");
    }
    let required = std::env::var_os("CI").is_some()
        || std::env::var("PQSIG_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "python3 is required here (CI / PQSIG_REQUIRE_PYTHON=1) but not found"
    );
    eprintln!("SKIPPED: Python protocol client test (python3 not found)");
    None
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/proto_client.py")
}

/// Runs the client; returns (exit code, stderr).
fn run(py: &str, server: &str, token: Option<&Path>, args: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(py);
    cmd.arg(script()).args(["--server", server]);
    if let Some(t) = token {
        cmd.arg("--token-file").arg(t);
    }
    let out = cmd.args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn python_client_signs_and_verifies() {
    let Some(py) = python() else { return };
    let srv = TestServer::start(keymap(), ServerConfig::default());
    let dir = std::env::temp_dir().join(format!("pqsig-proto-py-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name);
    let s = |path: &PathBuf| path.to_str().unwrap().to_string();
    std::fs::write(p("token"), [TOKEN, b"\n"].concat()).unwrap();
    std::fs::write(p("wrong"), b"nope").unwrap();
    std::fs::write(p("msg"), b"hello from python").unwrap();
    std::fs::write(p("other"), b"another message").unwrap();
    let token = p("token");
    for server in [srv.tcp.to_string(), srv.unix.to_string()] {
        assert_eq!(run(py, &server, Some(&token), &["ping"]).0, 0);
        for (id, alg) in KEYS {
            let sig = p(&format!("{id}.sig"));
            let (code, err) = run(
                py,
                &server,
                Some(&token),
                &[
                    "sign",
                    "--key-id",
                    id,
                    "--in",
                    &s(&p("msg")),
                    "--out",
                    &s(&sig),
                ],
            );
            assert_eq!(code, 0, "{alg} over {server}: {err}");
            let vk = key(alg).verifying_key();
            let sig_bytes = std::fs::read(&sig).unwrap();
            assert_eq!(
                vk.verify(b"hello from python", b"", &sig_bytes),
                Ok(()),
                "{alg}"
            );
            let by_id = |msg: &str| {
                run(
                    py,
                    &server,
                    Some(&token),
                    &["verify", "--key-id", id, "--in", msg, "--sig", &s(&sig)],
                )
            };
            assert_eq!(by_id(&s(&p("msg"))).0, 0, "{alg}");
            assert_eq!(by_id(&s(&p("other"))).0, 1, "{alg}");
            let pk = p(&format!("{id}.pk"));
            std::fs::write(&pk, vk.to_bytes()).unwrap();
            let inline = [
                "verify",
                "--alg",
                alg,
                "--pk",
                &s(&pk),
                "--in",
                &s(&p("msg")),
                "--sig",
                &s(&sig),
            ];
            assert_eq!(run(py, &server, Some(&token), &inline).0, 0, "{alg}");
        }
        // ML-DSA context and deterministic signing.
        let (msg, sig) = (s(&p("msg")), s(&p("ctx.sig")));
        let sign = ["sign", "--key-id", "mldsa65", "--in", &msg, "--out", &sig];
        let args = [&sign[..], &["--ctx", "0a0b", "--deterministic"]].concat();
        assert_eq!(run(py, &server, Some(&token), &args).0, 0);
        let vk = key("ML-DSA-65").verifying_key();
        let sig_bytes = std::fs::read(&sig).unwrap();
        assert_eq!(
            vk.verify(b"hello from python", &[10, 11], &sig_bytes),
            Ok(())
        );
        // Errors: exit 2 with a one-line reason.
        let (code, err) = run(py, &server, Some(&p("wrong")), &sign);
        assert_eq!(code, 2);
        assert!(err.contains("401"), "{err}");
        let (code, err) = run(py, &server, None, &sign);
        assert!(code == 2 && err.contains("401"), "{err}");
        let missing = [
            "sign",
            "--key-id",
            "nope",
            "--in",
            &s(&p("msg")),
            "--out",
            &sig,
        ];
        let (code, err) = run(py, &server, Some(&token), &missing);
        assert!(code == 2 && err.contains("404"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (code, err) = run(py, "tcp://127.0.0.1:1", Some(&token), &["ping"]);
    assert!(code == 2 && err.contains("cannot connect"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

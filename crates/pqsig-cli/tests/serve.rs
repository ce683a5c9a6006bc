//! `pqsig serve`: configuration errors exit 2 with one line; a real start answers
//! /healthz on loopback and SIGTERM stops it cleanly (exit 0); `pqsig client` over HTTP
//! signs and verifies against the real service, and `pqsig verify` accepts its signatures.

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

/// A `pqsig serve` child on a free loopback port, in its own directory, with one
/// all-powerful token (`tok` in that directory).
struct Served {
    child: std::process::Child,
    port: u16,
    dir: std::path::PathBuf,
}

const TOKEN: &str = "serve-test-token";

impl Served {
    fn start() -> Self {
        let dir = tempfile_dir();
        std::fs::write(dir.join("tok"), format!("{TOKEN}\n")).unwrap();
        std::fs::write(
            dir.join("server.toml"),
            format!("[[token]]\nname = \"t\"\ntoken = \"{TOKEN}\"\nkeys = [\"*\"]\noperations = [\"sign\", \"verify\", \"admin\"]\n"),
        )
        .unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = pqsig()
            .args([
                "serve",
                "--config",
                "server.toml",
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
        // The pipe is closed from here on: the server's shutdown message must not stop it.
        drop(err);
        Served { child, port, dir }
    }

    /// One HTTP/1.1 request; the status code and the body.
    fn http(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut resp = String::new();
        s.read_to_string(&mut resp).unwrap();
        let status = resp[9..12].parse().unwrap();
        let body = resp
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    fn stop(mut self) {
        let st = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(st.success());
        assert_eq!(self.child.wait().unwrap().code(), Some(0));
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn serves_healthz_and_stops_on_sigterm() {
    let srv = Served::start();
    let (st, body) = srv.http("GET", "/healthz", "");
    assert_eq!(st, 200, "{body}");
    assert!(body.contains("\"status\":\"ok\""), "{body}");
    assert!(
        srv.dir.join("k.db").exists(),
        "SQLite file created on first run"
    );
    srv.stop();
}

/// `pqsig client` (HTTP) against the real service: sign, verify (by key id and by public
/// key), external mu, ping; `pqsig verify` checks the service's signatures locally.
#[test]
fn client_over_http_against_the_real_service() {
    let srv = Served::start();
    let (st, body) = srv.http("POST", "/v1/keys", r#"{"alg":"ML-DSA-65"}"#);
    assert_eq!(st, 201, "{body}");
    let key: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = key["id"].as_str().unwrap();
    let d = &srv.dir;
    std::fs::write(d.join("pub.pem"), key["public_key_pem"].as_str().unwrap()).unwrap();
    std::fs::write(d.join("msg"), b"signed by the service").unwrap();
    std::fs::write(d.join("other"), b"not what was signed").unwrap();
    let url = format!("http://127.0.0.1:{}", srv.port);
    // Runs pqsig with whitespace-separated arguments ($SERVER: the server options, $ID:
    // the key id), asserts the exit code and returns stderr.
    let server = format!("--server {url} --token-file tok");
    let expect = |code: i32, args: &str| -> String {
        let line = args.replace("$SERVER", &server).replace("$ID", id);
        let out = pqsig()
            .args(line.split_whitespace())
            .current_dir(d)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(code), "pqsig {line}: {err}");
        err
    };
    let local = "--alg ML-DSA-65 --pk pub.pem";
    expect(
        0,
        "client sign $SERVER --key-id $ID --in msg --out sig --ctx 0a0b",
    );
    // The library accepts the service's signature.
    expect(0, &format!("verify {local} --in msg --sig sig --ctx 0a0b"));
    expect(
        0,
        "client verify $SERVER --key-id $ID --in msg --sig sig --ctx 0a0b",
    );
    expect(
        1,
        "client verify $SERVER --key-id $ID --in other --sig sig --ctx 0a0b",
    );
    expect(
        0,
        &format!("client verify $SERVER {local} --in msg --sig sig --ctx 0a0b"),
    );
    // External mu computed by the client.
    expect(
        0,
        &format!("client sign $SERVER --key-id $ID --in msg --out musig {local} --mu"),
    );
    expect(0, &format!("verify {local} --in msg --sig musig"));
    // Errors come back as one line with the service's message.
    let err = expect(2, "client sign $SERVER --key-id nope --in msg --out x");
    assert!(
        err.contains("404") && err.contains("no key with id"),
        "{err}"
    );
    expect(0, &format!("client ping --server {url}"));
    srv.stop();
}

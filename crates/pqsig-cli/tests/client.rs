//! `pqsig client` against servers in this process: the socket-protocol listener over
//! `KeyMapHandler` (TCP and Unix socket), and a minimal HTTP front end over the same
//! handler speaking the JSON API, so both transports of the command are exercised with
//! real keys. Exit codes: 0 ok / valid, 1 invalid, 2 error with a one-line message.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use pqsig::any::SigningKey;
use pqsig::Algorithm;
use pqsig_proto::background::BackgroundServer;
use pqsig_proto::server::ServerConfig;
use pqsig_proto::{
    Handler, Input, KeyMapHandler, KeyRef, Request, Response, SignRequest, VerifyRequest,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

const TOKEN: &str = "client-test-token";
const KEYS: [(&str, &str); 3] = [
    ("mldsa65", "ML-DSA-65"),
    ("falcon512", "Falcon-512"),
    ("snova", "SNOVA_I_S"),
];

fn key(alg: &str) -> SigningKey {
    let alg = Algorithm::from_name(alg).unwrap();
    SigningKey::from_seed(alg, &vec![0x24; alg.seed_len()]).unwrap()
}

/// The test keys, requiring [`TOKEN`]; messages over 4096 bytes must come as μ.
fn handler() -> Arc<KeyMapHandler> {
    let h = KEYS.iter().fold(KeyMapHandler::new(), |h, (id, alg)| {
        h.with_key(*id, key(alg))
    });
    Arc::new(h.with_token(TOKEN.as_bytes()).with_max_message(4096))
}

/// A scratch directory for one test (process id and tag keep tests apart).
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pqsig-client-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `a` followed by `b`.
fn join<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<&'a str> {
    [a, b].concat()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `pqsig client ...`; returns (exit code, stderr), checking the CLI's invariants.
fn client(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pqsig"))
        .arg("client")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or(-1);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(matches!(code, 0..=2), "{args:?}: exit {code}");
    if code == 2 {
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "one-line error expected: {err}"
        );
    }
    (code, err)
}

/// `pqsig client ping --server SERVER OPTION FILE`.
fn ping_with(server: &str, option: &str, file: &Path) -> (i32, String) {
    client(&["ping", "--server", server, option, s(file)])
}

/// Files every scenario uses: token, wrong token, two messages, a large message, and
/// each key's raw public key.
struct Files {
    dir: PathBuf,
}

impl Files {
    fn new(tag: &str) -> Files {
        let dir = scratch(tag);
        std::fs::write(dir.join("token"), format!("{TOKEN}\n")).unwrap();
        std::fs::write(dir.join("wrong"), "not-the-token").unwrap();
        std::fs::write(dir.join("msg"), b"sign me over the wire").unwrap();
        std::fs::write(dir.join("other"), b"something else").unwrap();
        std::fs::write(dir.join("big"), vec![0x5a; 10_000]).unwrap();
        for (id, alg) in KEYS {
            std::fs::write(
                dir.join(format!("{id}.pk")),
                key(alg).verifying_key().to_bytes(),
            )
            .unwrap();
        }
        Files { dir }
    }
    fn p(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Sign, verify (valid, invalid, inline key), μ for large messages and the error paths,
/// against `server` (any transport).
fn exercise(server: &str, f: &Files) {
    let tok = f.p("token");
    let common = ["--server", server, "--token-file", s(&tok)];
    let (msg, other) = (f.p("msg"), f.p("other"));
    for (id, alg) in KEYS {
        let sig = f.p(&format!("{id}.sig"));
        let (code, err) = client(
            &[
                &["sign"],
                &join(
                    &common,
                    &["--key-id", id, "--in", s(&msg), "--out", s(&sig)],
                )[..],
            ]
            .concat(),
        );
        assert_eq!(code, 0, "{alg} via {server}: {err}");
        let bytes = std::fs::read(&sig).unwrap();
        assert_eq!(
            key(alg)
                .verifying_key()
                .verify(b"sign me over the wire", b"", &bytes),
            Ok(())
        );
        let verify = |m: &Path, key_args: &[&str]| {
            client(
                &[
                    &["verify"],
                    &join(
                        &common,
                        &[&["--in", s(m), "--sig", s(&sig)], key_args].concat(),
                    )[..],
                ]
                .concat(),
            )
        };
        assert_eq!(verify(&msg, &["--key-id", id]).0, 0, "{alg}");
        let (code, err) = verify(&other, &["--key-id", id]);
        assert_eq!(code, 1, "{alg}: {err}");
        assert!(err.contains("invalid signature"), "{err}");
        let pk = f.p(&format!("{id}.pk"));
        assert_eq!(verify(&msg, &["--alg", alg, "--pk", s(&pk)]).0, 0, "{alg}");
        assert_eq!(
            verify(&other, &["--alg", alg, "--pk", s(&pk)]).0,
            1,
            "{alg}"
        );
    }
    // Context and deterministic signing (ML-DSA).
    let sig = f.p("ctx.sig");
    let args = join(
        &common,
        &[
            "--key-id",
            "mldsa65",
            "--in",
            s(&msg),
            "--out",
            s(&sig),
            "--ctx",
            "0102",
            "--deterministic",
        ],
    );
    assert_eq!(client(&[&["sign"], &args[..]].concat()).0, 0);
    let vk = key("ML-DSA-65").verifying_key();
    assert_eq!(
        vk.verify(
            b"sign me over the wire",
            &[1, 2],
            &std::fs::read(&sig).unwrap()
        ),
        Ok(())
    );
    // A message over the server's cap: refused, then signed and verified as μ.
    let (big, pk) = (f.p("big"), f.p("mldsa65.pk"));
    let sign_big = join(
        &common,
        &["--key-id", "mldsa65", "--in", s(&big), "--out", s(&sig)],
    );
    let (code, err) = client(&[&["sign"], &sign_big[..]].concat());
    assert!(
        code == 2 && err.contains("413") && err.contains("mu"),
        "{err}"
    );
    let mu = ["--alg", "ML-DSA-65", "--pk", s(&pk), "--mu"];
    assert_eq!(client(&[&["sign"], &sign_big[..], &mu].concat()).0, 0);
    assert_eq!(
        vk.verify(&[0x5a; 10_000], b"", &std::fs::read(&sig).unwrap()),
        Ok(())
    );
    let verify_big = join(
        &common,
        &["--key-id", "mldsa65", "--in", s(&big), "--sig", s(&sig)],
    );
    assert_eq!(client(&[&["verify"], &verify_big[..], &mu].concat()).0, 0);
    // Falcon has no external μ: a local error naming the option.
    let falcon_pk = f.p("falcon512.pk");
    let falcon_mu = ["--alg", "Falcon-512", "--pk", s(&falcon_pk), "--mu"];
    let (code, err) = client(
        &[
            &["sign"],
            &join(
                &common,
                &["--key-id", "falcon512", "--in", s(&msg), "--out", s(&sig)],
            )[..],
            &falcon_mu,
        ]
        .concat(),
    );
    assert!(code == 2 && err.contains("--mu"), "{err}");
    // Errors name the server and say what is wrong.
    let sign = [
        "sign",
        "--server",
        server,
        "--key-id",
        "mldsa65",
        "--in",
        s(&msg),
        "--out",
        s(&sig),
    ];
    let (code, err) = client(&[&sign[..], &["--token-file", s(&f.p("wrong"))]].concat());
    assert!(
        code == 2 && err.contains(server) && err.contains("401"),
        "{err}"
    );
    let (code, err) = client(&sign);
    assert!(code == 2 && err.contains("401"), "no token: {err}");
    let (code, err) = client(
        &[
            &["sign"],
            &join(
                &common,
                &["--key-id", "nope", "--in", s(&msg), "--out", s(&sig)],
            )[..],
        ]
        .concat(),
    );
    assert!(code == 2 && err.contains("404"), "{err}");
    let (code, err) = client(&[&sign[..], &["--token-file", s(&f.p("missing"))]].concat());
    assert!(
        code == 2 && err.contains("missing") && err.contains("token"),
        "{err}"
    );
    assert_eq!(client(&["ping", "--server", server]).0, 0);
}

#[test]
fn socket_protocol_over_tcp_and_unix() {
    let f = Files::new("socket");
    let sock = f.p("srv.sock");
    let srv = BackgroundServer::start(
        handler(),
        ServerConfig::default(),
        Some("127.0.0.1:0"),
        Some(&sock),
    )
    .unwrap();
    exercise(&srv.tcp().unwrap().to_string(), &f);
    // The Unix socket: one round trip.
    let unix = srv.unix().unwrap().to_string();
    let sig = f.p("u.sig");
    let tok = f.p("token");
    let msg = f.p("msg");
    let base = [
        "--server",
        unix.as_str(),
        "--token-file",
        s(&tok),
        "--key-id",
        "snova",
        "--in",
        s(&msg),
    ];
    assert_eq!(
        client(&[&["sign"], &base[..], &["--out", s(&sig)]].concat()).0,
        0
    );
    assert_eq!(
        client(&[&["verify"], &base[..], &["--sig", s(&sig)]].concat()).0,
        0
    );
}

#[test]
fn bad_server_arguments_and_unreachable_servers() {
    let f = Files::new("args");
    let msg = f.p("msg");
    let run = |server: &str| {
        client(&[
            "sign",
            "--server",
            server,
            "--key-id",
            "k",
            "--in",
            s(&msg),
            "--out",
            s(&f.p("x")),
        ])
    };
    for bad in ["ftp://h:1", "tcp://nohostport", "127.0.0.1:80"] {
        let (code, err) = run(bad);
        assert!(code == 2 && err.contains("--server"), "{bad}: {err}");
    }
    // Port 1 on loopback: nothing listens.
    let (code, err) = run("tcp://127.0.0.1:1");
    assert!(code == 2 && err.contains("cannot connect"), "{err}");
    let (code, err) = run("http://127.0.0.1:1");
    assert!(code == 2 && err.contains("127.0.0.1:1"), "{err}");
    let (code, err) = run(&format!("unix:{}", s(&f.p("no.sock"))));
    assert!(code == 2 && err.contains("cannot connect"), "{err}");
    std::fs::write(f.p("empty"), "\n").unwrap();
    let (code, err) = ping_with("tcp://127.0.0.1:1", "--token-file", &f.p("empty"));
    assert!(code == 2 && err.contains("empty"), "{err}");
}

// ------------------------------------------------- a minimal HTTP front end for the tests

/// Serves the JSON API (`POST /v1/keys/{id}/sign`, `POST /v1/verify`, `GET /healthz`) over
/// `handler`, one request per connection, on a loopback port; returns the base URL.
fn http_front_end(handler: Arc<KeyMapHandler>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { continue };
            let h = handler.clone();
            std::thread::spawn(move || {
                let _ = serve_http(conn, &h);
            });
        }
    });
    url
}

fn serve_http(conn: std::net::TcpStream, h: &KeyMapHandler) -> std::io::Result<()> {
    let mut r = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    r.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, path) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
    );
    let (mut len, mut auth) = (0usize, None);
    loop {
        let mut header = String::new();
        r.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => len = value.trim().parse().unwrap_or(0),
            "authorization" => auth = value.trim().strip_prefix("Bearer ").map(str::to_string),
            _ => {}
        }
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    let (status, json) = route(h, &method, &path, auth.as_deref(), &body);
    let json = json.to_string();
    let mut w = conn;
    write!(
        w,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{json}",
        json.len()
    )
}

fn route(
    h: &KeyMapHandler,
    method: &str,
    path: &str,
    auth: Option<&str>,
    body: &[u8],
) -> (u16, serde_json::Value) {
    use serde_json::json;
    if method == "GET" && path == "/healthz" {
        return (200, json!({"status": "ok"}));
    }
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
        return (400, json!({"error": "malformed JSON"}));
    };
    let b64 = |name: &str| {
        v.get(name)
            .and_then(|x| x.as_str())
            .and_then(|x| B64.decode(x).ok())
    };
    let input = match (b64("message"), b64("mu")) {
        (Some(m), None) => Input::Message(m),
        (None, Some(mu)) => match mu.try_into() {
            Ok(mu) => Input::Mu(mu),
            Err(_) => return (400, json!({"error": "mu must be 64 bytes"})),
        },
        _ => return (400, json!({"error": "give message or mu"})),
    };
    let context = b64("context").unwrap_or_default();
    let req = if let Some(id) = path
        .strip_prefix("/v1/keys/")
        .and_then(|p| p.strip_suffix("/sign"))
    {
        Request::Sign(SignRequest {
            key_id: id.to_string(),
            input,
            context,
            deterministic: v
                .get("deterministic")
                .and_then(|d| d.as_bool())
                .unwrap_or(false),
        })
    } else if path == "/v1/verify" {
        let key = match (
            v.get("key_id").and_then(|k| k.as_str()),
            v.get("alg").and_then(|a| a.as_str()),
        ) {
            (Some(id), _) => KeyRef::Id(id.to_string()),
            (None, Some(alg)) => KeyRef::Inline {
                algorithm: alg.to_string(),
                public_key: b64("public_key").unwrap_or_default(),
            },
            _ => return (400, json!({"error": "give key_id or alg and public_key"})),
        };
        Request::Verify(VerifyRequest {
            key,
            input,
            context,
            signature: b64("signature").unwrap_or_default(),
        })
    } else {
        return (404, json!({"error": "no such endpoint"}));
    };
    match h.handle(auth.map(str::as_bytes), req) {
        Response::Signature(sig) => (200, json!({"signature": B64.encode(sig)})),
        Response::Valid => (200, json!({"valid": true})),
        Response::Invalid => (200, json!({"valid": false})),
        Response::Error(e) => (e.code.0, json!({"error": e.message})),
        other => (500, json!({"error": format!("{other:?}")})),
    }
}

#[test]
fn http_json_api() {
    let f = Files::new("http");
    let url = http_front_end(handler());
    exercise(&url, &f);
    // A trailing slash on the base URL is fine.
    assert_eq!(client(&["ping", "--server", &format!("{url}/")]).0, 0);
    // --ca-file is refused for the socket protocol, and must hold a certificate.
    let (code, err) = ping_with("tcp://127.0.0.1:1", "--ca-file", &f.p("msg"));
    assert!(code == 2 && err.contains("--ca-file"), "{err}");
    let (code, err) = ping_with("https://127.0.0.1:1", "--ca-file", &f.p("msg"));
    assert!(code == 2 && err.contains("no PEM certificate"), "{err}");
}

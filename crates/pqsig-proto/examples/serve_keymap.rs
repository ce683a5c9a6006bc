//! A self-contained protocol server over in-memory keys (`KeyMapHandler`), for demos and
//! for clients' tests (the Python example, other languages):
//!
//! ```text
//! cargo run -p pqsig-proto --example serve-keymap -- \
//!     --tcp 127.0.0.1:0 --unix /tmp/pq.sock --token s3cret \
//!     --key alice=ML-DSA-65 --key bob=Falcon-512:<96 hex digits of seed> --pk-dir /tmp/pks
//! ```
//!
//! Prints `listening on tcp://127.0.0.1:PORT` (and `unix:PATH`) on standard output, writes
//! each key's raw public key to `PK_DIR/ID.pk` when asked, and serves until standard input
//! is closed, then drains in-flight requests and exits.

use pqsig::any::SigningKey;
use pqsig::Algorithm;
use pqsig_proto::background::BackgroundServer;
use pqsig_proto::server::ServerConfig;
use pqsig_proto::KeyMapHandler;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

struct Options {
    tcp: Option<String>,
    unix: Option<PathBuf>,
    pk_dir: Option<PathBuf>,
    handler: KeyMapHandler,
    ids: Vec<String>,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        tcp: None,
        unix: None,
        pk_dir: None,
        handler: KeyMapHandler::new(),
        ids: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--tcp" => o.tcp = Some(value()?),
            "--unix" => o.unix = Some(PathBuf::from(value()?)),
            "--pk-dir" => o.pk_dir = Some(PathBuf::from(value()?)),
            "--token" => o.handler = o.handler.with_token(value()?.as_bytes()),
            "--key" => {
                let spec = value()?;
                let (id, rest) = spec.split_once('=').ok_or("--key wants ID=ALG[:SEEDHEX]")?;
                let (name, seed) = rest.split_once(':').unwrap_or((rest, ""));
                let alg = Algorithm::from_name(name).map_err(|e| format!("{name}: {e}"))?;
                let sk = if seed.is_empty() {
                    SigningKey::generate(alg)
                } else {
                    let seed = hex::decode(seed).map_err(|e| format!("--key {id}: {e}"))?;
                    SigningKey::from_seed(alg, &seed)
                }
                .map_err(|e| format!("--key {id}: {e}"))?;
                o.handler = o.handler.with_key(id, sk);
                o.ids.push(id.to_string());
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if o.tcp.is_none() && o.unix.is_none() {
        return Err("give --tcp ADDR and/or --unix PATH".into());
    }
    Ok(o)
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("serve-keymap: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let o = parse()?;
    if let Some(dir) = &o.pk_dir {
        for id in &o.ids {
            let pk = o.handler.verifying_key(id).map(|vk| vk.to_bytes().to_vec());
            let path = dir.join(format!("{id}.pk"));
            std::fs::write(&path, pk.unwrap_or_default())
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let handler = Arc::new(o.handler);
    let config = ServerConfig::default();
    let mut server = BackgroundServer::start(handler, config, o.tcp.as_deref(), o.unix.as_deref())
        .map_err(|e| format!("cannot listen: {e}"))?;
    let mut out = std::io::stdout();
    for ep in [server.tcp(), server.unix()].into_iter().flatten() {
        let _ = writeln!(out, "listening on {ep}");
    }
    let _ = out.flush();
    // Serve until standard input closes (the parent process is done with us).
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    server.stop().map_err(|e| e.to_string())
}

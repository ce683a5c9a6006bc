//! Batch verify over HTTP against the library's own multi-core verify throughput
//! (issue 7's target: at least 70% for ML-DSA-65). Loopback only, bounded in time.
//!
//! cargo run -p pqsig-server --example batch_verify_ratio [-- ALG BATCH SECONDS]
//! (the workspace dev profile is optimised; use --release for release figures)

use pqsig_server::{KekSource, ServerConfig};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let alg = args.get(1).cloned().unwrap_or_else(|| "ML-DSA-65".into());
    let batch: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(512);
    let secs: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let dir = std::env::temp_dir().join(format!("pqsig-ratio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let toml = "[limits]\nmax_batch = 100000\nmax_body_bytes = 268435456\n\n[[token]]\nname = \"b\"\ntoken = \"t\"\nkeys = [\"*\"]\noperations = [\"sign\", \"verify\", \"admin\"]\n";
    let mut cfg = ServerConfig::from_file(pqsig_server::FileConfig::parse(toml).unwrap()).unwrap();
    cfg.listen = "127.0.0.1:0".parse().unwrap();
    cfg.db = dir.join("k.db").to_string_lossy().into_owned();
    cfg.kek = Some(KekSource::InsecureDev);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(pqsig_server::start(cfg)).unwrap();
    let base = format!("http://{}", server.local_addr());
    let client = reqwest::blocking::Client::new();
    let b64 = |b: &[u8]| {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(b)
    };

    let key: Value = client
        .post(format!("{base}/v1/keys"))
        .bearer_auth("t")
        .json(&json!({ "alg": alg }))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let id = key["id"].as_str().unwrap().to_string();
    let msgs: Vec<Vec<u8>> = (0..batch as u32)
        .map(|i| format!("message {i}").into_bytes())
        .collect();
    let items: Vec<Value> = msgs.iter().map(|m| json!({ "message": b64(m) })).collect();
    let signed: Value = client
        .post(format!("{base}/v1/keys/{id}/sign-batch"))
        .bearer_auth("t")
        .json(&json!({ "items": items }))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let sigs: Vec<String> = signed["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["signature"].as_str().unwrap().to_string())
        .collect();

    // Library baseline: all cores (rayon), same messages and signatures.
    let a = pqsig::Algorithm::from_name(&alg).unwrap();
    let pk = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(key["public_key"].as_str().unwrap())
            .unwrap()
    };
    let vk = pqsig::any::VerifyingKey::from_bytes(a, &pk).unwrap();
    let raw_sigs: Vec<Vec<u8>> = sigs
        .iter()
        .map(|s| {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.decode(s).unwrap()
        })
        .collect();
    // HTTP: the body built once; two clients (CLIENTS=n) keep the server busy while one uploads.
    let body = serde_json::to_vec(&json!({
        "key_id": id,
        "items": msgs.iter().zip(&sigs).map(|(m, s)| json!({ "message": b64(m), "signature": s })).collect::<Vec<_>>(),
    }))
    .unwrap();
    // Leaked once so that every request sends it without a copy (the client shares the
    // two cores with the server; its copies would be charged to the service).
    let body: &'static [u8] = Box::leak(body.into_boxed_slice());
    let url = format!("{base}/v1/verify-batch");
    // Library and HTTP rounds alternate, so load from other processes hits both alike.
    let round = Duration::from_secs_f64(1.0);
    let (mut lib_ops, mut lib_t, mut http_ops, mut http_t) = (0usize, 0f64, 0usize, 0f64);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs_f64(secs) {
        let t0 = Instant::now();
        while t0.elapsed() < round {
            let ok = msgs
                .par_iter()
                .zip(raw_sigs.par_iter())
                .filter(|(m, s)| vk.verify(m, b"", s).is_ok())
                .count();
            assert_eq!(ok, batch);
            lib_ops += batch;
        }
        lib_t += t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        http_ops += std::thread::scope(|sc| {
            let hs: Vec<_> = (0..std::env::var("CLIENTS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2))
                .map(|_| {
                    let url = url.clone();
                    sc.spawn(move || {
                        let c = reqwest::blocking::Client::new();
                        let mut n = 0;
                        while t0.elapsed() < round {
                            let r = c
                                .post(&url)
                                .bearer_auth("t")
                                .header("content-type", "application/json")
                                .body(body)
                                .send()
                                .unwrap();
                            assert_eq!(r.status().as_u16(), 200);
                            let text = r.text().unwrap();
                            assert_eq!(text.matches("true").count(), batch);
                            n += batch;
                        }
                        n
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).sum::<usize>()
        });
        http_t += t0.elapsed().as_secs_f64();
    }
    let lib_rate = lib_ops as f64 / lib_t;
    let http_rate = http_ops as f64 / http_t;
    println!(
        "{alg}: library multi-core verify {lib_rate:.0}/s ({} threads); HTTP verify-batch ({batch} items) {http_rate:.0}/s; ratio {:.0}%",
        rayon::current_num_threads(),
        100.0 * http_rate / lib_rate
    );
    rt.block_on(server.shutdown()).unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

//! Load test of the HTTP service: throughput and p50/p99 latency of sign and verify, single
//! and batch endpoints, at 1, 8 and 64 concurrent clients, for ML-DSA-65, Falcon-512 and
//! SNOVA_I_S; each cell against the library's own throughput measured in the same run.
//!
//! ```sh
//! cargo bench -p pqsig-server --bench loadtest                 # every cell, table on stdout
//! cargo bench -p pqsig-server --bench loadtest -- --json       # one JSON object per cell
//! cargo bench -p pqsig-server --bench loadtest -- --target-only
//! ```
//!
//! Loopback only and bounded: each cell runs `--secs` seconds (default 2) or
//! `--max-requests` requests (default 200000), whichever ends first. The server runs in
//! this process (its own tokio runtime, a temporary SQLite store, an insecure dev KEK),
//! and the clients run on one more thread: they share the machine's cores with the
//! server, so the figures include the client's cost — a conservative measure of the
//! service overhead.
//!
//! Clients speak plain HTTP/1.1 with keep-alive (hyper's connection API, one connection
//! per client); request bodies are built once before timing, so a request costs the
//! client one write and one read.
//!
//! The target of issue 7 (batch verify of ML-DSA-65 over HTTP ≥ 70% of the library's
//! multi-core verify throughput) is measured with library and HTTP rounds interleaved,
//! so that load from elsewhere on the machine hits both alike; the median of the round
//! ratios is reported, for the JSON body and for the binary batch body. The library's
//! rate is its per-item `verify` spread over the cores with rayon (the reference of
//! issue 7); each round also measures the library's batch engine
//! (`pqsig::batch::verify_batch_with`, ML-DSA in lockstep, what the service now calls)
//! and reports the ratio to it as well. It is a capacity
//! figure, so it is taken at saturation: 8 clients (the middle column of the matrix) keep
//! both cores busy, where 2 leave about a tenth of them idle while requests are in
//! transit or being parsed (`--target-clients` shows that regime).

use base64::Engine;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use pqsig::any;
use pqsig::Algorithm;
use pqsig_server::{FileConfig, KekSource, ServerConfig, BATCH_MEDIA_TYPE};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const TOKEN: &str = "loadtest-token-0123";

/// Command-line options (`cargo bench ... -- OPTIONS`).
struct Opts {
    secs: f64,
    max_requests: usize,
    algs: Vec<Algorithm>,
    clients: Vec<usize>,
    batch: usize,
    json: bool,
    target_only: bool,
    target_batch: usize,
    target_rounds: usize,
    target_clients: usize,
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        secs: 2.0,
        max_requests: 200_000,
        algs: ["ML-DSA-65", "Falcon-512", "SNOVA_I_S"]
            .iter()
            .map(|n| Algorithm::from_name(n).unwrap())
            .collect(),
        clients: vec![1, 8, 64],
        batch: 64,
        json: false,
        target_only: false,
        target_batch: 1024,
        target_rounds: 7,
        target_clients: 8,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let value = |i: &mut usize| -> String {
        *i += 1;
        args.get(*i).cloned().unwrap_or_else(|| {
            eprintln!("loadtest: {} needs a value", args[*i - 1]);
            std::process::exit(2)
        })
    };
    let num = |s: String, what: &str| -> f64 {
        s.parse().unwrap_or_else(|_| {
            eprintln!("loadtest: {what}: not a number: {s}");
            std::process::exit(2)
        })
    };
    while i < args.len() {
        match args[i].as_str() {
            "--secs" => o.secs = num(value(&mut i), "--secs"),
            "--max-requests" => o.max_requests = num(value(&mut i), "--max-requests") as usize,
            "--batch" => o.batch = num(value(&mut i), "--batch") as usize,
            "--target-batch" => o.target_batch = num(value(&mut i), "--target-batch") as usize,
            "--target-rounds" => o.target_rounds = num(value(&mut i), "--target-rounds") as usize,
            "--target-clients" => {
                o.target_clients = num(value(&mut i), "--target-clients") as usize
            }
            "--algs" => {
                o.algs = value(&mut i)
                    .split(',')
                    .map(|n| {
                        Algorithm::from_name(n).unwrap_or_else(|_| {
                            eprintln!("loadtest: unknown algorithm {n}");
                            std::process::exit(2)
                        })
                    })
                    .collect()
            }
            "--clients" => {
                o.clients = value(&mut i)
                    .split(',')
                    .map(|c| num(c.to_string(), "--clients") as usize)
                    .collect()
            }
            "--json" => o.json = true,
            "--target-only" => o.target_only = true,
            // `cargo bench` passes --bench to every bench target.
            "--bench" => {}
            other => {
                eprintln!("loadtest: unknown option {other}");
                std::process::exit(2)
            }
        }
        i += 1;
    }
    o.batch = o.batch.max(1);
    o.target_batch = o.target_batch.max(1);
    o.target_rounds = o.target_rounds.max(1);
    o.target_clients = o.target_clients.max(1);
    o
}

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

fn unb64(s: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .expect("server base64")
}

/// One prepared request: path and body, sent as is; `items` operations per request.
#[derive(Clone)]
struct Prepared {
    path: String,
    body: Bytes,
    items: usize,
    /// `application/json`, or the binary batch type.
    content_type: &'static str,
}

/// Requests and latencies measured for one cell.
struct CellResult {
    items: usize,
    requests: usize,
    elapsed: f64,
    latencies_us: Vec<u64>,
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    sender: http1::SendRequest<Full<Bytes>>,
}

impl Conn {
    async fn open(addr: SocketAddr) -> Conn {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        let (sender, conn) = http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Conn { sender }
    }

    /// Sends `p` and returns the response body; panics on a non-2xx answer (a load test
    /// that silently counts errors as throughput would be worthless).
    async fn send(&mut self, addr: SocketAddr, p: &Prepared) -> Bytes {
        self.sender.ready().await.expect("connection ready");
        let req = hyper::Request::post(&p.path)
            .header(hyper::header::HOST, addr.to_string())
            .header(hyper::header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .header(hyper::header::CONTENT_TYPE, p.content_type)
            .body(Full::new(p.body.clone()))
            .expect("request");
        let resp = self.sender.send_request(req).await.expect("response");
        let status = resp.status();
        let body = resp.into_body().collect().await.expect("body").to_bytes();
        assert!(
            status.is_success(),
            "{} answered {status}: {:.300}",
            p.path,
            String::from_utf8_lossy(&body)
        );
        body
    }
}

/// Checks a response: every verification valid, every signing produced a signature.
fn check_response(p: &Prepared, body: &[u8]) {
    let text = std::str::from_utf8(body).expect("utf-8 body");
    let want = if p.path.contains("verify") {
        "\"valid\":true"
    } else {
        "\"signature\":"
    };
    assert_eq!(
        text.matches(want).count(),
        p.items,
        "{}: unexpected answer {text:.200}",
        p.path
    );
}

/// Runs `clients` connections, each sending requests from `reqs` round-robin, for the
/// time or request budget; returns items done, requests and per-request latencies.
fn run_cell(
    rt: &tokio::runtime::Runtime,
    addr: SocketAddr,
    reqs: &[Prepared],
    clients: usize,
    secs: f64,
    max_requests: usize,
) -> CellResult {
    rt.block_on(async {
        let mut conns = Vec::new();
        for _ in 0..clients {
            conns.push(Conn::open(addr).await);
        }
        // Warm-up: one request per connection (keys cached, buffers sized).
        for (i, c) in conns.iter_mut().enumerate() {
            let p = &reqs[i % reqs.len()];
            let body = c.send(addr, p).await;
            check_response(p, &body);
        }
        let budget = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(max_requests));
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        let start = Instant::now();
        let mut tasks = Vec::new();
        for (ci, mut c) in conns.into_iter().enumerate() {
            let reqs: Vec<Prepared> = reqs.to_vec();
            let budget = budget.clone();
            tasks.push(tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut items = 0;
                let mut k = ci;
                while Instant::now() < deadline {
                    let left = budget.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                    if left == 0 || left > max_requests {
                        break;
                    }
                    let p = &reqs[k % reqs.len()];
                    k += 1;
                    let t0 = Instant::now();
                    let body = c.send(addr, p).await;
                    lat.push(t0.elapsed().as_micros() as u64);
                    check_response(p, &body);
                    items += p.items;
                }
                (items, lat)
            }));
        }
        let mut res = CellResult {
            items: 0,
            requests: 0,
            elapsed: 0.0,
            latencies_us: Vec::new(),
        };
        for t in tasks {
            let (items, lat) = t.await.expect("client task");
            res.items += items;
            res.requests += lat.len();
            res.latencies_us.extend(lat);
        }
        res.elapsed = start.elapsed().as_secs_f64();
        res
    })
}

/// CPU seconds this process has used (user + system, all threads), from /proc/self/stat
/// (clock ticks of 10 ms; `None` off Linux).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn percentile(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i] as f64
}

/// Items per second of `f` run repeatedly on one thread for about `secs`.
fn lib_rate(secs: f64, per_call: usize, mut f: impl FnMut()) -> f64 {
    f();
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed().as_secs_f64() < secs {
        f();
        n += per_call;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// One algorithm's key in the server plus messages and signatures to verify.
struct Fixture {
    alg: Algorithm,
    key_id: String,
    vk: any::VerifyingKey,
    msgs: Vec<Vec<u8>>,
    sigs: Vec<Vec<u8>>,
}

fn post_json(rt: &tokio::runtime::Runtime, addr: SocketAddr, path: &str, v: &Value) -> Value {
    let p = Prepared {
        path: path.to_string(),
        body: Bytes::from(serde_json::to_vec(v).unwrap()),
        items: 0,
        content_type: "application/json",
    };
    let body = rt.block_on(async {
        let mut c = Conn::open(addr).await;
        c.send(addr, &p).await
    });
    serde_json::from_slice(&body).expect("json answer")
}

fn fixture(rt: &tokio::runtime::Runtime, addr: SocketAddr, alg: Algorithm, n: usize) -> Fixture {
    let key = post_json(rt, addr, "/v1/keys", &json!({ "alg": alg.name() }));
    let key_id = key["id"].as_str().expect("key id").to_string();
    let vk = any::VerifyingKey::from_bytes(alg, &unb64(key["public_key"].as_str().unwrap()))
        .expect("public key");
    let msgs: Vec<Vec<u8>> = (0..n)
        .map(|i| format!("load test message {i} for {}", alg.name()).into_bytes())
        .collect();
    let items: Vec<Value> = msgs.iter().map(|m| json!({ "message": b64(m) })).collect();
    let signed = post_json(
        rt,
        addr,
        &format!("/v1/keys/{key_id}/sign-batch"),
        &json!({ "items": items }),
    );
    let sigs: Vec<Vec<u8>> = signed["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| unb64(r["signature"].as_str().expect("signature")))
        .collect();
    for (m, s) in msgs.iter().zip(&sigs) {
        vk.verify(m, b"", s)
            .expect("server signature verifies locally");
    }
    Fixture {
        alg,
        key_id,
        vk,
        msgs,
        sigs,
    }
}

/// The four request shapes of a fixture: sign / verify, single / batch of `batch`.
fn prepared(fx: &Fixture, batch: usize) -> [(&'static str, &'static str, Vec<Prepared>); 4] {
    let n = fx.msgs.len();
    let sign_single = (0..n.min(64))
        .map(|i| Prepared {
            path: format!("/v1/keys/{}/sign", fx.key_id),
            body: Bytes::from(json!({ "message": b64(&fx.msgs[i]) }).to_string()),
            items: 1,
            content_type: "application/json",
        })
        .collect();
    let verify_single = (0..n.min(64))
        .map(|i| Prepared {
            path: "/v1/verify".into(),
            body: Bytes::from(
                json!({ "key_id": fx.key_id, "message": b64(&fx.msgs[i]),
                        "signature": b64(&fx.sigs[i]) })
                .to_string(),
            ),
            items: 1,
            content_type: "application/json",
        })
        .collect();
    let chunk = |off: usize| -> Vec<usize> { (0..batch).map(|j| (off + j) % n).collect() };
    let sign_batch = (0..4)
        .map(|r| Prepared {
            path: format!("/v1/keys/{}/sign-batch", fx.key_id),
            body: Bytes::from(
                json!({ "items": chunk(r * batch).iter()
                    .map(|&i| json!({ "message": b64(&fx.msgs[i]) })).collect::<Vec<_>>() })
                .to_string(),
            ),
            items: batch,
            content_type: "application/json",
        })
        .collect();
    let verify_batch = (0..4)
        .map(|r| Prepared {
            path: "/v1/verify-batch".into(),
            body: Bytes::from(verify_batch_body(fx, &chunk(r * batch))),
            items: batch,
            content_type: "application/json",
        })
        .collect();
    [
        ("sign", "single", sign_single),
        ("sign", "batch", sign_batch),
        ("verify", "single", verify_single),
        ("verify", "batch", verify_batch),
    ]
}

fn verify_batch_body(fx: &Fixture, idx: &[usize]) -> String {
    json!({ "key_id": fx.key_id, "items": idx.iter()
        .map(|&i| json!({ "message": b64(&fx.msgs[i]), "signature": b64(&fx.sigs[i]) }))
        .collect::<Vec<_>>() })
    .to_string()
}

/// The same batch as a binary body: the payload of a protocol BATCH frame of VERIFY items.
fn verify_batch_binary(fx: &Fixture, idx: &[usize]) -> Vec<u8> {
    use pqsig_proto::{Input, KeyRef, Request, VerifyRequest};
    let items = idx
        .iter()
        .map(|&i| {
            Request::Verify(VerifyRequest {
                key: KeyRef::Id(fx.key_id.clone()),
                input: Input::Message(fx.msgs[i].clone()),
                context: Vec::new(),
                signature: fx.sigs[i].clone(),
            })
        })
        .collect();
    pqsig_proto::codec::encode_request_payload(&Request::Batch(items))
        .expect("encode batch")
        .1
}

fn main() {
    let o = parse_opts();
    let dir = std::env::temp_dir().join(format!("pqsig-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let toml = format!(
        "[limits]\nmax_batch = 4096\nmax_body_bytes = 268435456\n\
         max_inflight_body_bytes = 17179869184\n\
         max_concurrent_per_token = 1024\n\n[[token]]\nname = \"load\"\ntoken = \"{TOKEN}\"\n\
         keys = [\"*\"]\noperations = [\"sign\", \"verify\", \"admin\"]\n"
    );
    let mut cfg =
        ServerConfig::from_file(FileConfig::parse(&toml).expect("config")).expect("config");
    cfg.listen = "127.0.0.1:0".parse().unwrap();
    cfg.db = dir.join("keys.db").to_string_lossy().into_owned();
    cfg.kek = Some(KekSource::InsecureDev);
    let server_rt = tokio::runtime::Runtime::new().expect("server runtime");
    let server = server_rt
        .block_on(pqsig_server::start(cfg))
        .expect("server");
    let addr = server.local_addr();
    // The clients: one thread, so that the server keeps the other cores.
    let client_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("client runtime");
    let threads = rayon::current_num_threads();
    let backend = pqsig::backend::active().name();
    if !o.json {
        println!(
            "pqsig-server load test: loopback, {threads} cores, backend {backend}, {:.1} s or {} requests a cell, batch {}",
            o.secs, o.max_requests, o.batch
        );
    }

    let need = o.batch.max(o.target_batch).max(64) * 4;
    let mut fixtures = Vec::new();
    for &alg in &o.algs {
        fixtures.push(fixture(&client_rt, addr, alg, need.min(4096)));
    }

    if !o.target_only {
        if !o.json {
            println!(
                "\n| algorithm | op | endpoint | clients | items/s | p50 ms | p99 ms | library 1-thread items/s | ratio |"
            );
            println!("|---|---|---|---:|---:|---:|---:|---:|---:|");
        }
        for fx in &fixtures {
            // Library single-thread baselines, with a key of the same algorithm.
            let sk = any::SigningKey::generate(fx.alg).expect("keygen");
            let lib_sign = lib_rate(1.0, 1, || {
                sk.sign(&fx.msgs[0], b"").expect("sign");
            });
            let mut k = 0;
            let lib_verify = lib_rate(1.0, 1, || {
                let i = k % fx.msgs.len();
                k += 1;
                fx.vk.verify(&fx.msgs[i], b"", &fx.sigs[i]).expect("verify");
            });
            for (op, endpoint, reqs) in prepared(fx, o.batch) {
                let lib = if op == "sign" { lib_sign } else { lib_verify };
                for &clients in &o.clients {
                    let r = run_cell(&client_rt, addr, &reqs, clients, o.secs, o.max_requests);
                    let mut lat = r.latencies_us;
                    lat.sort_unstable();
                    let rate = r.items as f64 / r.elapsed;
                    let (p50, p99) = (percentile(&lat, 0.5) / 1e3, percentile(&lat, 0.99) / 1e3);
                    if o.json {
                        println!(
                            "{}",
                            json!({ "alg": fx.alg.name(), "op": op, "endpoint": endpoint,
                                "batch": if endpoint == "batch" { o.batch } else { 1 },
                                "clients": clients, "requests": r.requests, "items": r.items,
                                "seconds": r.elapsed, "items_per_s": rate,
                                "p50_ms": p50, "p99_ms": p99,
                                "library_1thread_items_per_s": lib, "ratio": rate / lib,
                                "cores": threads, "backend": backend })
                        );
                    } else {
                        println!(
                            "| {} | {op} | {endpoint} | {clients} | {rate:.0} | {p50:.2} | {p99:.2} | {lib:.0} | {:.2} |",
                            fx.alg.name(),
                            rate / lib
                        );
                    }
                }
            }
        }
    }

    // The target: HTTP batch verify of ML-DSA-65 vs the library on every core, with the
    // JSON body and with the binary batch body; library and HTTP rounds interleaved.
    if let Some(fx) = fixtures
        .iter()
        .find(|f| f.alg == Algorithm::from_name("ML-DSA-65").unwrap())
    {
        let idx: Vec<usize> = (0..o.target_batch).map(|i| i % fx.msgs.len()).collect();
        let bodies = [
            (
                "json",
                "application/json",
                Bytes::from(verify_batch_body(fx, &idx)),
            ),
            (
                "binary",
                BATCH_MEDIA_TYPE,
                Bytes::from(verify_batch_binary(fx, &idx)),
            ),
        ];
        let mut lib_rates = Vec::new();
        let mut engine_rates = Vec::new();
        let engine_items: Vec<pqsig::batch::VerifyItem<'_>> = idx
            .iter()
            .map(|&i| pqsig::batch::VerifyItem::new(&fx.vk, &fx.msgs[i], &fx.sigs[i]))
            .collect();
        let engine_opts = pqsig::batch::Options::default();
        // Per body: ratios to the round's library rate, HTTP rates, and the CPU use of
        // the whole process (server and client) in cores, which shows whether the
        // service left cores idle or spent them.
        let mut per_body: Vec<(Vec<f64>, Vec<f64>, Vec<f64>)> = vec![Default::default(); 2];
        for _ in 0..o.target_rounds {
            let lib = lib_rate(1.0, idx.len(), || {
                let ok = idx
                    .par_iter()
                    .filter(|&&i| fx.vk.verify(&fx.msgs[i], b"", &fx.sigs[i]).is_ok())
                    .count();
                assert_eq!(ok, idx.len());
            });
            lib_rates.push(lib);
            engine_rates.push(lib_rate(1.0, idx.len(), || {
                let r = pqsig::batch::verify_batch_with(&engine_items, &engine_opts);
                assert!(r.iter().all(Result::is_ok));
            }));
            for ((_, ctype, body), acc) in bodies.iter().zip(per_body.iter_mut()) {
                let req = [Prepared {
                    path: "/v1/verify-batch".into(),
                    body: body.clone(),
                    items: o.target_batch,
                    content_type: ctype,
                }];
                let cpu0 = cpu_seconds();
                let r = run_cell(
                    &client_rt,
                    addr,
                    &req,
                    o.target_clients,
                    1.0,
                    o.max_requests,
                );
                let http = r.items as f64 / r.elapsed;
                if let (Some(a), Some(b)) = (cpu0, cpu_seconds()) {
                    acc.2.push((b - a) / r.elapsed);
                }
                acc.0.push(http / lib);
                acc.1.push(http);
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let median = |v: &[f64]| {
            let mut v = v.to_vec();
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        };
        if !o.json {
            println!(
                "\nTarget: ML-DSA-65 verify-batch, {} items a request, {} clients, {} interleaved rounds; library on {threads} cores {:.0}/s (per-item verify over rayon), batch engine {:.0}/s",
                o.target_batch, o.target_clients, o.target_rounds, mean(&lib_rates), mean(&engine_rates)
            );
        }
        for ((name, _, body), (ratios, rates, util)) in bodies.iter().zip(&per_body) {
            let med = median(ratios);
            if o.json {
                println!(
                    "{}",
                    json!({ "target": "ML-DSA-65 verify-batch over HTTP vs library multi-core verify",
                        "body": name, "body_bytes": body.len(),
                        "batch": o.target_batch, "clients": o.target_clients,
                        "rounds": o.target_rounds,
                        "library_multicore_items_per_s": mean(&lib_rates),
                        "library_engine_items_per_s": mean(&engine_rates),
                        "ratio_to_engine": mean(rates) / mean(&engine_rates),
                        "http_batch_items_per_s": mean(rates),
                        "ratio_median": med, "ratios": ratios, "cores": threads,
                        "http_cpu_cores_used": util,
                        "backend": backend, "met": med >= 0.70 })
                );
            } else {
                let list = |v: &[f64], pct: bool| {
                    v.iter()
                        .map(|x| {
                            if pct {
                                format!("{:.0}%", 100.0 * x)
                            } else {
                                format!("{x:.2}")
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                println!(
                    "  {name:6} body ({} KiB): HTTP {:.0}/s, median ratio {:.0}% (rounds: {}), CPU cores in use {} — target 70%: {}; {:.0}% of the batch engine",
                    body.len() / 1024,
                    mean(rates),
                    100.0 * med,
                    list(ratios, true),
                    list(util, false),
                    if med >= 0.70 { "met" } else { "NOT met" },
                    100.0 * mean(rates) / mean(&engine_rates)
                );
            }
        }
    }

    server_rt
        .block_on(server.shutdown())
        .expect("graceful shutdown");
    let _ = std::fs::remove_dir_all(&dir);
}

//! A throwaway PostgreSQL 15 cluster for the store tests: initdb in a temp dir owned by
//! the `postgres` system user (the server refuses to run as root), on a free loopback
//! port, trust authentication, stopped and removed on drop.

use std::path::PathBuf;
use std::process::Command;

/// Where Debian installs the server binaries (one directory per major version).
const ROOT: &str = "/usr/lib/postgresql";

/// The newest installed version's `bin` directory.
fn bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(ROOT)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, b): &(u32, PathBuf)| b.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop().map(|(_, b)| b)
}

/// A running cluster.
pub struct PgCluster {
    dir: tempfile::TempDir,
    /// `postgres://postgres@127.0.0.1:PORT/postgres`
    pub url: String,
    port: u16,
    bin: String,
}

fn as_postgres(cmd: &str, args: &[&str]) -> Command {
    let is_root = unsafe_uid_is_root();
    let mut c = if is_root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--", cmd]);
        c
    } else {
        Command::new(cmd)
    };
    c.args(args);
    c
}

fn unsafe_uid_is_root() -> bool {
    // `id -u` avoids a libc dependency for one call.
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout.starts_with(b"0\n"))
        .unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl PgCluster {
    /// Starts a cluster, or returns `None` (after printing SKIPPED) when the binaries
    /// are absent; panics instead when `PQSIG_REQUIRE_POSTGRES=1`.
    pub fn start(test: &str) -> Option<Self> {
        let Some(bin) = bin_dir() else {
            if std::env::var("PQSIG_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                panic!("PQSIG_REQUIRE_POSTGRES=1 but no {ROOT}/*/bin/initdb (apt-get install postgresql)");
            }
            println!("SKIPPED: {test} (PostgreSQL server not installed under {ROOT})");
            eprintln!("SKIPPED: {test} (PostgreSQL server not installed under {ROOT})");
            return None;
        };
        let bin = bin.display().to_string();
        // /tmp, not $TMPDIR: the postgres user must be able to reach the directory.
        let dir = tempfile::Builder::new()
            .prefix("pqsig-pg")
            .tempdir_in("/tmp")
            .unwrap();
        let data: PathBuf = dir.path().join("data");
        if unsafe_uid_is_root() {
            let st = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(st.success(), "chown the cluster directory to postgres");
        }
        let data_s = data.to_str().unwrap();
        let out = as_postgres(
            &format!("{bin}/initdb"),
            &["-D", data_s, "-U", "postgres", "-A", "trust", "--no-sync"],
        )
        .output()
        .expect("run initdb");
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port();
        let opts = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            dir.path().display()
        );
        let log = dir.path().join("log");
        let out = as_postgres(
            &format!("{bin}/pg_ctl"),
            &[
                "-D",
                data_s,
                "-o",
                &opts,
                "-l",
                log.to_str().unwrap(),
                "-w",
                "-t",
                "60",
                "start",
            ],
        )
        .output()
        .expect("run pg_ctl");
        assert!(
            out.status.success(),
            "pg_ctl start: {} {}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        Some(PgCluster {
            dir,
            url: format!("postgres://postgres@127.0.0.1:{port}/postgres"),
            port,
            bin,
        })
    }

    /// A fresh database in the cluster (tests sharing a cluster stay independent).
    pub fn database(&self, name: &str) -> String {
        let mut c = postgres::Client::connect(&self.url, postgres::NoTls).expect("connect");
        c.batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create database");
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl PgCluster {
    /// The postmaster and its children (the backends): what a frozen server is.
    pub fn processes(&self) -> Vec<i32> {
        let pid_file = self.dir.path().join("data").join("postmaster.pid");
        let Some(master) = std::fs::read_to_string(pid_file)
            .ok()
            .and_then(|t| t.lines().next()?.trim().parse::<i32>().ok())
        else {
            return Vec::new();
        };
        let mut pids = vec![master];
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            // Field 4 (after the parenthesised name) is the parent pid.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok());
            if ppid == Some(master) {
                pids.push(pid);
            }
        }
        pids
    }

    /// Sends `signal` (e.g. `STOP`, `CONT`) to the cluster's processes.
    pub fn signal(&self, signal: &str) {
        for pid in self.processes() {
            let _ = Command::new("kill")
                .arg(format!("-{signal}"))
                .arg(pid.to_string())
                .status();
        }
    }

    /// Restarts the server (fast shutdown: open connections are terminated).
    pub fn restart(&self) {
        let data = self.dir.path().join("data");
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log");
        let out = as_postgres(
            &format!("{}/pg_ctl", self.bin),
            &[
                "-D",
                data.to_str().unwrap(),
                "-o",
                &opts,
                "-l",
                log.to_str().unwrap(),
                "-m",
                "fast",
                "-w",
                "-t",
                "60",
                "restart",
            ],
        )
        .output()
        .expect("run pg_ctl restart");
        assert!(
            out.status.success(),
            "pg_ctl restart: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        let _ = as_postgres(
            &format!("{}/pg_ctl", self.bin),
            &[
                "-D",
                data.to_str().unwrap(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        )
        .output();
    }
}

//! Append-only JSON-lines logs (the sign audit log and the HTTP access log): one JSON
//! object per line, written by a thread of their own so a request never waits on disk
//! unless the queue is full (then it waits: audit records are never dropped).
//! A file is created owner-only (0600) and opened for append; `-` means stderr.

use std::io::Write;
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Mutex;

/// Records queued before writers wait.
const QUEUE: usize = 65_536;

/// A JSON-lines log, or a disabled one that drops everything.
pub struct JsonLog {
    tx: Option<Mutex<SyncSender<String>>>,
}

impl JsonLog {
    /// A log that records nothing.
    pub fn disabled() -> Self {
        JsonLog { tx: None }
    }

    /// Opens `path` (`-`: stderr) for appending; `None` gives a disabled log.
    pub fn open(path: Option<&Path>, what: &str) -> Result<Self, String> {
        let Some(path) = path else {
            return Ok(Self::disabled());
        };
        let out: Box<dyn Write + Send> = if path == Path::new("-") {
            Box::new(std::io::stderr())
        } else {
            use std::os::unix::fs::OpenOptionsExt;
            let f = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .mode(0o600)
                .open(path)
                .map_err(|e| format!("cannot open {what} {}: {e}", path.display()))?;
            Box::new(std::io::BufWriter::new(f))
        };
        let (tx, rx) = sync_channel(QUEUE);
        std::thread::Builder::new()
            .name(format!("pqsig-{what}"))
            .spawn(move || write_loop(out, rx))
            .map_err(|e| format!("cannot start the {what} writer: {e}"))?;
        Ok(JsonLog {
            tx: Some(Mutex::new(tx)),
        })
    }

    /// Whether records are kept (callers skip building them otherwise).
    pub fn enabled(&self) -> bool {
        self.tx.is_some()
    }

    /// Queues one record.
    pub fn write(&self, record: &serde_json::Value) {
        if let Some(tx) = &self.tx {
            let tx = tx.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let _ = tx.send(record.to_string());
        }
    }
}

fn write_loop(mut out: Box<dyn Write + Send>, rx: Receiver<String>) {
    while let Ok(line) = rx.recv() {
        let mut ok = writeln!(out, "{line}").is_ok();
        // Drain what is queued, then flush once: a burst shares one write.
        while let Ok(line) = rx.try_recv() {
            ok &= writeln!(out, "{line}").is_ok();
        }
        if !(ok && out.flush().is_ok()) {
            crate::log!("error: cannot write a log record (disk full?)");
        }
    }
}

/// Seconds since the Unix epoch with milliseconds, for log records.
pub fn timestamp() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| (d.as_millis() as f64) / 1000.0)
        .unwrap_or(0.0)
}

//! File, hex and stdout helpers. Every error names the file (or option) and what is wrong,
//! in one line, and maps to exit code 2.

use crate::exit::Failure;
use std::fs;
use std::io::{self, BufWriter, Read, Stdout, Write};
use std::path::Path;
use zeroize::Zeroizing;

/// `-` stands for standard input (messages) or standard output (signatures).
pub const STDIO: &str = "-";

fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == STDIO
}

/// Reads a whole file (or stdin for `-`). `what` says what the file should hold
/// ("public key", "message", ...) for the error message.
pub fn read_file(path: &Path, what: &str) -> Result<Vec<u8>, Failure> {
    let result = if is_stdio(path) {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
    } else {
        fs::read(path)
    };
    result.map_err(|e| {
        Failure::error(format!(
            "{}: cannot read {what}: {}",
            shown(path),
            describe(&e)
        ))
    })
}

/// How much of a streamed input is read at a time (on the heap).
pub const CHUNK: usize = 1 << 20;

/// A message file (or stdin for `-`) opened for streaming: read in [`CHUNK`]-byte pieces
/// so that inputs of any size take constant memory.
pub struct Input {
    shown: String,
    what: &'static str,
    reader: Box<dyn Read>,
}

impl Input {
    /// Opens `path` (errors name the file, like [`read_file`]'s).
    pub fn open(path: &Path, what: &'static str) -> Result<Self, Failure> {
        let reader: Box<dyn Read> = if is_stdio(path) {
            Box::new(io::stdin().lock())
        } else {
            let file = fs::File::open(path).map_err(|e| {
                Failure::error(format!(
                    "{}: cannot read {what}: {}",
                    shown(path),
                    describe(&e)
                ))
            })?;
            Box::new(file)
        };
        Ok(Input {
            shown: shown(path),
            what,
            reader,
        })
    }

    /// Feeds the whole input to `f`, [`CHUNK`] bytes at a time (the last piece shorter);
    /// returns the number of bytes read.
    pub fn stream(mut self, mut f: impl FnMut(&[u8])) -> Result<u64, Failure> {
        let mut buf = vec![0u8; CHUNK];
        let mut total = 0u64;
        loop {
            let mut filled = 0;
            while filled < buf.len() {
                match self.reader.read(&mut buf[filled..]) {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        return Err(Failure::error(format!(
                            "{}: cannot read {}: {}",
                            self.shown,
                            self.what,
                            describe(&e)
                        )))
                    }
                }
            }
            if filled == 0 {
                return Ok(total);
            }
            f(&buf[..filled]);
            total += filled as u64;
        }
    }
}

/// Reads a secret file into memory that is wiped when dropped.
pub fn read_secret(path: &Path, what: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    read_file(path, what).map(Zeroizing::new)
}

/// Writes (creating or truncating) a file, or stdout for `-`.
pub fn write_file(path: &Path, data: &[u8], what: &str) -> Result<(), Failure> {
    let result = if is_stdio(path) {
        let mut out = io::stdout().lock();
        out.write_all(data).and_then(|_| out.flush())
    } else {
        fs::write(path, data)
    };
    result.map_err(|e| {
        Failure::error(format!(
            "{}: cannot write {what}: {}",
            shown(path),
            describe(&e)
        ))
    })
}

/// Writes a secret key: on unix the file is created with mode 0600 and, if it already
/// existed, its mode is reset to 0600 before the key is written.
pub fn write_secret(path: &Path, data: &[u8], what: &str) -> Result<(), Failure> {
    if is_stdio(path) {
        return Err(Failure::error(format!(
            "-: refusing to write the {what} to standard output (give a file name)"
        )));
    }
    let fail = |e: io::Error| {
        Failure::error(format!(
            "{}: cannot write {what}: {}",
            shown(path),
            describe(&e)
        ))
    };
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut file = opts.open(path).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(0o600))
            .map_err(fail)?;
    }
    file.write_all(data)
        .and_then(|_| file.sync_all())
        .map_err(fail)
}

/// Decodes a hex option value (`0x` prefix and surrounding whitespace allowed; empty = no bytes).
pub fn parse_hex(option: &str, value: &str) -> Result<Vec<u8>, Failure> {
    let v = value.trim();
    let v = v
        .strip_prefix("0x")
        .or_else(|| v.strip_prefix("0X"))
        .unwrap_or(v);
    hex::decode(v).map_err(|e| Failure::error(format!("{option}: invalid hex: {e}")))
}

/// A path for messages (`<stdio>` for `-`).
pub fn shown(path: &Path) -> String {
    if is_stdio(path) {
        "<stdio>".to_string()
    } else {
        path.display().to_string()
    }
}

/// The I/O error without the `(os error N)` noise, lower-cased like the rest of the message.
pub fn describe(e: &io::Error) -> String {
    let s = e.to_string();
    let s = match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    };
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => s,
    }
}

/// Whether to print progress lines on stderr: asked for (`--progress`), or stderr is a
/// terminal (so that redirected logs stay clean).
pub fn progress_wanted(asked: bool) -> bool {
    use std::io::IsTerminal;
    asked || io::stderr().is_terminal()
}

/// Buffered standard output whose errors become [`Failure`]s: a closed pipe
/// (`pqsig kat | head`) ends the command quietly instead of panicking.
pub struct Out {
    inner: BufWriter<Stdout>,
}

impl Out {
    pub fn new() -> Self {
        Out {
            inner: BufWriter::new(io::stdout()),
        }
    }

    /// Writes formatted text (use with `format_args!`).
    pub fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> Result<(), Failure> {
        self.inner.write_fmt(args).map_err(stdout_failure)
    }

    pub fn flush(&mut self) -> Result<(), Failure> {
        self.inner.flush().map_err(stdout_failure)
    }
}

fn stdout_failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::silent()
    } else {
        Failure::error(format!("cannot write to standard output: {}", describe(&e)))
    }
}

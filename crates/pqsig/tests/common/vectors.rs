//! Where the suites read the official test vectors from: `$PQSIG_VECTORS` when it is set
//! (an uncompressed tree laid out as `vectors/`), else `vectors/` in the repository,
//! unpacked once per target directory.
//!
//! `vectors/MANIFEST` lists every file with the SHA-256 of its original bytes and how it
//! is stored (`raw`, or `xz` as `PATH.xz`). Unpacking writes the whole tree under
//! `$CARGO_TARGET_TMPDIR/pqsig-vectors/<key>/`, each file only after its hash matched,
//! where `<key>` hashes the MANIFEST and every stored file: a changed vector gets a fresh
//! tree, an unchanged one is never decompressed twice (later test binaries and runs only
//! re-hash the ~19 MB stored form). Python and the shell scripts read the same files
//! through `scripts/vectors.py`.
#![allow(dead_code)]

use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One `file` line of `vectors/MANIFEST`.
#[derive(Clone)]
pub struct ManifestEntry {
    /// Path of the original file, relative to the vectors folder.
    pub path: String,
    /// Size of the original file in bytes.
    pub size: u64,
    /// SHA-256 of the original file, lower-case hex.
    pub sha256: String,
    /// Stored xz-compressed as `PATH.xz` (else as `PATH`, unchanged).
    pub xz: bool,
    /// Key of the `source` line that says where the file comes from.
    pub source: String,
    /// Key of the `licence` line it is distributed under.
    pub licence: String,
}

impl ManifestEntry {
    /// Where the file is stored under the repository's `vectors/`.
    pub fn stored_path(&self) -> String {
        if self.xz {
            format!("{}.xz", self.path)
        } else {
            self.path.clone()
        }
    }

    /// `None` when `data` is this file's original bytes, else what differs.
    pub fn mismatch(&self, data: &[u8]) -> Option<String> {
        let got = hex::encode(Sha256::digest(data));
        (data.len() as u64 != self.size || got != self.sha256).then(|| {
            format!(
                "{}: {} bytes, SHA-256 {got}; vectors/MANIFEST says {} bytes, {}",
                self.path,
                data.len(),
                self.size,
                self.sha256
            )
        })
    }
}

/// The parsed `vectors/MANIFEST`.
pub struct Manifest {
    pub files: Vec<ManifestEntry>,
    /// Keys of the `source` lines.
    pub sources: Vec<String>,
    /// Keys (SPDX identifiers) of the `licence` lines.
    pub licences: Vec<String>,
}

/// The repository's `vectors/` folder.
pub fn repo_vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

/// `vectors/MANIFEST`, parsed; panics on a malformed line.
pub fn manifest() -> Manifest {
    let path = repo_vectors().join("MANIFEST");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut m = Manifest {
        files: Vec::new(),
        sources: Vec::new(),
        licences: Vec::new(),
    };
    for (n, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "file" => {
                if f.len() != 7 || !matches!(f[4], "raw" | "xz") {
                    malformed(n + 1, line);
                }
                m.files.push(ManifestEntry {
                    path: f[1].to_string(),
                    size: f[2].parse().unwrap_or_else(|_| malformed(n + 1, line)),
                    sha256: f[3].to_string(),
                    xz: f[4] == "xz",
                    source: f[5].to_string(),
                    licence: f[6].to_string(),
                });
            }
            "source" if f.len() == 3 => m.sources.push(f[1].to_string()),
            "licence" if f.len() == 3 => m.licences.push(f[1].to_string()),
            _ if line.is_empty() || line.starts_with('#') => {}
            _ => malformed(n + 1, line),
        }
    }
    m
}

fn malformed(line_no: usize, line: &str) -> ! {
    panic!("vectors/MANIFEST line {line_no}: malformed: {line:?}")
}

/// The vectors folder the suites read: `$PQSIG_VECTORS`, else the repository's vectors
/// unpacked (see [`repo_vectors_unpacked`]).
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os("PQSIG_VECTORS").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => repo_vectors_unpacked(),
    }
}

/// The repository's vectors as an uncompressed tree under the target directory, every
/// file checked against the MANIFEST (unpacked on the first call of the first test binary
/// that needs it; concurrent processes are safe: each file appears by an atomic rename).
pub fn repo_vectors_unpacked() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(unpack).clone()
}

fn unpack() -> PathBuf {
    let src = repo_vectors();
    let m = manifest();
    let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let stored: Vec<Vec<u8>> = m
        .files
        .iter()
        .map(|e| read(&src.join(e.stored_path())))
        .collect();
    let mut key = Sha256::new();
    key.update(read(&src.join("MANIFEST")));
    for (e, data) in m.files.iter().zip(&stored) {
        key.update(e.stored_path().as_bytes());
        key.update((data.len() as u64).to_le_bytes());
        key.update(data);
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("pqsig-vectors")
        .join(hex::encode(&key.finalize()[..8]));
    let done = dir.join(".complete");
    if done.is_file() {
        return dir;
    }
    for (e, data) in m.files.iter().zip(stored) {
        let dest = dir.join(&e.path);
        // Only ever renamed into place after its check (by this or another process).
        if dest.is_file() {
            continue;
        }
        let original = if e.xz { unxz(&e.path, &data) } else { data };
        if let Some(why) = e.mismatch(&original) {
            panic!("{why} (stored as vectors/{})", e.stored_path());
        }
        let parent = dest.parent().expect("a file path has a parent");
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{}: {e}", parent.display()));
        let part = dir.join(format!("{}.part{}", e.path, std::process::id()));
        std::fs::write(&part, &original).unwrap_or_else(|e| panic!("{}: {e}", part.display()));
        std::fs::rename(&part, &dest).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
    }
    std::fs::write(&done, b"").unwrap_or_else(|e| panic!("{}: {e}", done.display()));
    dir
}

/// The xz stream `data` decompressed (pure Rust: no system library needed).
fn unxz(name: &str, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    lzma_rust2::XzReader::new(data, false)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("vectors/{name}.xz: {e}"));
    out
}

//! `vectors/MANIFEST` against the files: the repository's `vectors/` holds exactly the
//! files it lists (stored as it says), every file unpacks to the size and SHA-256 of its
//! original, every source and licence it names is defined, and, when `$PQSIG_VECTORS`
//! names another tree, that tree holds the same bytes.

mod common;

use common::vectors::{manifest, repo_vectors, repo_vectors_unpacked, ManifestEntry};
use std::collections::BTreeSet;
use std::path::Path;

/// Every MANIFEST file under `dir` (an uncompressed tree): the mismatches, one per file.
fn mismatches(dir: &Path, files: &[ManifestEntry]) -> Vec<String> {
    files
        .iter()
        .filter_map(|e| match std::fs::read(dir.join(&e.path)) {
            Ok(data) => e.mismatch(&data),
            Err(err) => Some(format!("{}: {err}", e.path)),
        })
        .collect()
}

/// Relative paths of every file under `dir`.
fn files_under(dir: &Path, rel: &str, out: &mut BTreeSet<String>) {
    for ent in std::fs::read_dir(dir.join(rel)).unwrap() {
        let ent = ent.unwrap();
        let name = ent.file_name().into_string().unwrap();
        let path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if ent.file_type().unwrap().is_dir() {
            files_under(dir, &path, out);
        } else {
            out.insert(path);
        }
    }
}

#[test]
fn repository_holds_exactly_the_manifest_files() {
    let m = manifest();
    assert_eq!(m.files.len(), 50, "the vector collection has 50 files");
    let mut want: BTreeSet<String> = m.files.iter().map(|e| e.stored_path()).collect();
    assert_eq!(want.len(), m.files.len(), "a path listed twice");
    want.insert("MANIFEST".into());
    want.insert("README.md".into());
    let mut got = BTreeSet::new();
    files_under(&repo_vectors(), "", &mut got);
    assert_eq!(
        got.difference(&want).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "files in vectors/ that the MANIFEST does not list"
    );
    assert_eq!(
        want.difference(&got).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "MANIFEST files missing from vectors/"
    );
}

#[test]
fn every_file_names_a_defined_source_and_licence() {
    let m = manifest();
    for e in &m.files {
        assert!(
            m.sources.contains(&e.source),
            "{}: source {}",
            e.path,
            e.source
        );
        assert!(
            m.licences.contains(&e.licence),
            "{}: licence {}",
            e.path,
            e.licence
        );
        assert!(
            e.sha256.len() == 64 && e.sha256.bytes().all(|b| b.is_ascii_hexdigit()),
            "{}: sha256 {}",
            e.path,
            e.sha256
        );
    }
    // Every definition is used.
    for s in &m.sources {
        assert!(m.files.iter().any(|e| &e.source == s), "unused source {s}");
    }
    for l in &m.licences {
        assert!(
            m.files.iter().any(|e| &e.licence == l),
            "unused licence {l}"
        );
    }
}

#[test]
fn repository_vectors_match_the_manifest() {
    let m = manifest();
    let bad = mismatches(&repo_vectors_unpacked(), &m.files);
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn override_tree_matches_the_manifest() {
    let Some(dir) = std::env::var_os("PQSIG_VECTORS").filter(|v| !v.is_empty()) else {
        // Nothing to compare: the suites read the repository's copy (checked above).
        return;
    };
    let m = manifest();
    let bad = mismatches(Path::new(&dir), &m.files);
    assert!(bad.is_empty(), "$PQSIG_VECTORS: {bad:#?}");
}

/// The check is not vacuous: one changed byte, a truncated file and a missing file are
/// each reported.
#[test]
fn a_changed_file_is_reported() {
    let m = manifest();
    let small: Vec<ManifestEntry> = m.files.iter().filter(|e| !e.xz).take(3).cloned().collect();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("vectors-manifest-negative-{}", std::process::id()));
    let src = repo_vectors_unpacked();
    for (i, e) in small.iter().enumerate() {
        let dest = tmp.join(&e.path);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        let mut data = std::fs::read(src.join(&e.path)).unwrap();
        match i {
            0 => data[7] ^= 1,
            1 => {
                data.pop();
            }
            _ => continue, // not written: missing
        }
        std::fs::write(&dest, data).unwrap();
    }
    let bad = mismatches(&tmp, &small);
    std::fs::remove_dir_all(&tmp).unwrap();
    assert_eq!(bad.len(), 3, "{bad:#?}");
    assert!(
        bad[0].contains("SHA-256") && bad[1].contains("bytes"),
        "{bad:#?}"
    );
}

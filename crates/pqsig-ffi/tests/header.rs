//! The committed header `include/pqsig.h` must be exactly what cbindgen generates from
//! `src/lib.rs`.
//!
//! Why a committed header checked by a test rather than a build.rs that writes it: C users
//! get the header from the source tree without running cargo or cbindgen; a build script
//! writing into the source folder would dirty the tree on every build (and fails under
//! `cargo package`/read-only sources); and cbindgen (with its syn/serde/toml dependencies)
//! is then only compiled for `cargo test`, not for every build of the library. A stale
//! header fails here; `PQSIG_BLESS_HEADER=1 cargo test -p pqsig-ffi --test header`
//! rewrites it.

use std::path::Path;

#[test]
fn committed_header_matches_cbindgen() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = dir.join("include/pqsig.h");
    if std::env::var_os("PQSIG_BLESS_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("write include/pqsig.h");
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/pqsig.h is stale: regenerate it with \
         PQSIG_BLESS_HEADER=1 cargo test -p pqsig-ffi --test header"
    );
}

//! Compiles the C tests (`tests/c/test_*.c`) and the C example (`examples/sign.c`) with the
//! system C compiler against the library cargo just built, and runs them: every test
//! against the static library `libpqsig_ffi.a`, and the error test and the example again
//! against the shared library `libpqsig_ffi.so` (`.dylib` on macOS).
//!
//! The compiler is `$CC`, else `cc`, else `gcc`. When none exists the test says SKIPPED
//! (on the terminal, past cargo's output capture) and passes, unless `PQSIG_REQUIRE_CC`
//! is set, in which case a missing compiler fails it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where cargo put this package's library artifacts. The test executable lives in
/// `<target>/<profile>/deps/` (this follows `CARGO_TARGET_DIR`, `--target <triple>` and
/// `--profile` alike); the library's compile writes `libpqsig_ffi.a` / `.so` into that
/// same `deps/` directory and cargo copies them up to `<target>/<profile>/` (a copy that
/// is not refreshed if it was deleted while the library stayed fresh). `deps/` first.
fn artifact_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("deps dir").to_path_buf();
    let profile = deps.parent().expect("profile dir").to_path_buf();
    for dir in [&deps, &profile] {
        if dir.join(static_lib_name()).exists() {
            return dir.clone();
        }
    }
    panic!(
        "{} not found in {} or {} (cargo builds it with the library's crate types)",
        static_lib_name(),
        deps.display(),
        profile.display()
    );
}

fn static_lib_name() -> &'static str {
    if cfg!(windows) {
        "pqsig_ffi.lib"
    } else {
        "libpqsig_ffi.a"
    }
}

fn shared_lib_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "libpqsig_ffi.dylib"
    } else if cfg!(windows) {
        "pqsig_ffi.dll"
    } else {
        "libpqsig_ffi.so"
    }
}

/// The system libraries a Rust static library needs (what `rustc --print
/// native-static-libs` lists for the target).
fn native_libs() -> &'static [&'static str] {
    if cfg!(target_os = "macos") {
        &["-lSystem", "-lc", "-lm"]
    } else if cfg!(target_os = "linux") {
        &[
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ]
    } else {
        &["-lpthread", "-lm"]
    }
}

/// A message on the real stderr, not swallowed by the test harness's capture.
fn say(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
    #[cfg(unix)]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: fd 2 is open for the whole process; ManuallyDrop never closes it.
        let mut f = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(2) });
        let _ = writeln!(f, "{msg}");
    }
}

fn find_compiler() -> Option<String> {
    let mut candidates = Vec::new();
    if let Ok(cc) = std::env::var("CC") {
        if !cc.trim().is_empty() {
            candidates.push(cc);
        }
    }
    candidates.push("cc".into());
    candidates.push("gcc".into());
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

struct Build {
    cc: String,
    crate_dir: PathBuf,
    lib_dir: PathBuf,
    out_dir: PathBuf,
}

impl Build {
    /// Compiles `source` into `out_dir/<exe>`, linked statically or against the shared
    /// library; panics with the compiler's output on failure.
    fn compile(&self, source: &Path, exe: &str, shared: bool) -> PathBuf {
        let out = self.out_dir.join(exe);
        let mut cmd = Command::new(&self.cc);
        cmd.args(["-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror"])
            .arg("-I")
            .arg(self.crate_dir.join("include"))
            .arg("-I")
            .arg(self.crate_dir.join("tests/c"))
            .arg(source)
            .arg("-o")
            .arg(&out);
        if shared {
            assert!(
                self.lib_dir.join(shared_lib_name()).exists(),
                "{} not found in {}",
                shared_lib_name(),
                self.lib_dir.display()
            );
            cmd.arg("-L").arg(&self.lib_dir).arg("-lpqsig_ffi");
            if !cfg!(windows) {
                cmd.arg(format!("-Wl,-rpath,{}", self.lib_dir.display()));
            }
        } else {
            cmd.arg(self.lib_dir.join(static_lib_name()));
        }
        cmd.args(native_libs());
        let o = cmd.output().expect("run the C compiler");
        assert!(
            o.status.success(),
            "compiling {} failed ({:?}):\n{}{}",
            source.display(),
            cmd,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        out
    }

    fn run(&self, exe: &Path, args: &[&str]) -> String {
        self.run_env(exe, args, &[])
    }

    /// [`Build::run`] with extra environment variables.
    fn run_env(&self, exe: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
        let o = Command::new(exe)
            .args(args)
            .env("LD_LIBRARY_PATH", &self.lib_dir)
            .envs(env.iter().copied())
            .output()
            .expect("run a C test");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.status.success(),
            "{} failed ({}):\n{text}",
            exe.display(),
            o.status
        );
        text
    }
}

fn setup() -> Option<Build> {
    let Some(cc) = find_compiler() else {
        if std::env::var_os("PQSIG_REQUIRE_CC").is_some() {
            panic!("no C compiler ($CC, cc, gcc) found and PQSIG_REQUIRE_CC is set");
        }
        say("SKIPPED: pqsig-ffi C tests (no C compiler: set $CC or install gcc)");
        return None;
    };
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pqsig-ffi-c");
    std::fs::create_dir_all(&out_dir).expect("create the C build directory");
    Some(Build {
        cc,
        crate_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        lib_dir: artifact_dir(),
        out_dir,
    })
}

#[test]
fn c_tests_against_the_static_library() {
    let Some(b) = setup() else { return };
    let dir = b.crate_dir.join("tests/c");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/c")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("test_") && name.ends_with(".c")
        })
        .collect();
    sources.sort();
    assert!(sources.len() >= 2, "C tests missing in {}", dir.display());
    for src in &sources {
        let stem = src.file_stem().and_then(|s| s.to_str()).expect("file name");
        let exe = b.compile(src, &format!("{stem}-static"), false);
        let out = b.run(&exe, &[]);
        assert!(
            out.contains("checks passed"),
            "{stem}: unexpected output:\n{out}"
        );
    }
}

#[test]
fn c_tests_against_the_shared_library() {
    let Some(b) = setup() else { return };
    let src = b.crate_dir.join("tests/c/test_errors.c");
    let exe = b.compile(&src, "test_errors-shared", true);
    let out = b.run(&exe, &[]);
    assert!(out.contains("checks passed"), "unexpected output:\n{out}");
    // A few algorithms through the shared library too (one per family).
    let src = b.crate_dir.join("tests/c/test_roundtrip.c");
    let exe = b.compile(&src, "test_roundtrip-shared", true);
    b.run(
        &exe,
        &[
            "ML-DSA-87",
            "Falcon-padded-512",
            "FN-DSA-1024",
            "SNOVA_III_B_AES",
        ],
    );
}

#[test]
fn c_example_builds_and_runs() {
    let Some(b) = setup() else { return };
    let src = b.crate_dir.join("examples/sign.c");
    for shared in [false, true] {
        let exe = b.compile(
            &src,
            if shared { "sign-shared" } else { "sign-static" },
            shared,
        );
        let out = b.run(&exe, &["ML-DSA-65", "hello"]);
        assert!(out.contains("ML-DSA-65") && out.contains("valid"), "{out}");
        let out = b.run(&exe, &["SNOVA_I_S"]);
        assert!(out.contains("SNOVA_I_S") && out.contains("valid"), "{out}");
        // An unknown name: exit status 2 and the last error on stderr.
        let o = Command::new(&exe)
            .arg("RSA-1024")
            .env("LD_LIBRARY_PATH", &b.lib_dir)
            .output()
            .expect("run the example");
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("unknown algorithm \"RSA-1024\""));
    }
}

#[test]
fn pkg_config_file_links_the_example() {
    let Some(b) = setup() else { return };
    let ok = Command::new("pkg-config")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        say("SKIPPED: pqsig.pc check (pkg-config not installed)");
        return;
    }
    // Fill the template as an install would, pointing at the build tree.
    let template = std::fs::read_to_string(b.crate_dir.join("pqsig.pc.in")).expect("pqsig.pc.in");
    for key in ["@PREFIX@", "@LIBDIR@", "@INCLUDEDIR@", "@VERSION@"] {
        assert!(template.contains(key), "pqsig.pc.in lacks {key}");
    }
    let pc = template
        .replace("@PREFIX@", &b.crate_dir.display().to_string())
        .replace("@LIBDIR@", &b.lib_dir.display().to_string())
        .replace("@INCLUDEDIR@", "${prefix}/include")
        .replace("@VERSION@", env!("CARGO_PKG_VERSION"));
    let pc_dir = b.out_dir.join("pkgconfig");
    std::fs::create_dir_all(&pc_dir).expect("pkgconfig dir");
    std::fs::write(pc_dir.join("pqsig.pc"), pc).expect("write pqsig.pc");
    let o = Command::new("pkg-config")
        .args(["--cflags", "--libs", "pqsig"])
        .env("PKG_CONFIG_PATH", &pc_dir)
        .output()
        .expect("run pkg-config");
    assert!(
        o.status.success(),
        "pkg-config: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let flags = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(flags.contains("-lpqsig_ffi"), "{flags}");
    let version = Command::new("pkg-config")
        .args(["--modversion", "pqsig"])
        .env("PKG_CONFIG_PATH", &pc_dir)
        .output()
        .expect("run pkg-config");
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        env!("CARGO_PKG_VERSION")
    );
    // cc examples/sign.c $(pkg-config --cflags --libs pqsig)
    let exe = b.out_dir.join("sign-pkg-config");
    let mut cmd = Command::new(&b.cc);
    cmd.arg("-std=c99")
        .arg(b.crate_dir.join("examples/sign.c"))
        .args(flags.split_whitespace())
        .arg(format!("-Wl,-rpath,{}", b.lib_dir.display()))
        .arg("-o")
        .arg(&exe);
    let c = cmd.output().expect("run the C compiler");
    assert!(
        c.status.success(),
        "{:?}: {}",
        cmd,
        String::from_utf8_lossy(&c.stderr)
    );
    let out = b.run(&exe, &["FN-DSA-512"]);
    assert!(out.contains("FN-DSA-512") && out.contains("valid"), "{out}");
}

/// `tests/c/test_ntt.c` with the card as the kernel device: a `timed` card in this
/// process, reached through `PQSIG_CARD` by both driver modes. The C test checks every
/// result against its naive NTT as on the CPU (the static-library test above runs it
/// without a device); here the card's counters must show that every polynomial went to
/// the card. Then a `PQSIG_DEVICE` naming no kernel device: typed errors.
#[cfg(target_os = "linux")]
#[test]
fn c_ntt_batch_through_the_card() {
    use std::sync::atomic::Ordering;
    let Some(b) = setup() else { return };
    let exe = b.compile(
        &b.crate_dir.join("tests/c/test_ntt.c"),
        "test_ntt-card",
        false,
    );
    // The polynomials test_ntt.c transforms without error: batches 1, 2, 3, 4, 5, 9 in
    // both modes for two input ranges, two edge polynomials, a round trip of 4 twice.
    const POLYS: u64 = (1 + 2 + 3 + 4 + 5 + 9) * 4 + 2 + 8;
    const CALLS: u64 = 6 * 4 + 2 + 2;
    for device in ["card", "card-per-call"] {
        let sock = std::env::temp_dir().join(format!(
            "pqsig-ffi-ntt-{}-{device}.sock",
            std::process::id()
        ));
        let card = pqsig_card::CardConfig {
            spin: std::time::Duration::from_micros(200),
            ..pqsig_card::CardConfig::new(sock.clone())
        }
        .spawn()
        .expect("card starts");
        let sock_str = sock.to_str().expect("utf-8 temp path");
        let out = b.run_env(
            &exe,
            &[],
            &[("PQSIG_CARD", sock_str), ("PQSIG_DEVICE", device)],
        );
        assert!(out.contains("checks passed"), "{device}: {out}");
        let c = &card.counters;
        assert_eq!(c.errors.load(Ordering::Relaxed), 0, "{device}: card errors");
        assert_eq!(
            c.polys.load(Ordering::Relaxed),
            POLYS,
            "{device}: polynomials the card transformed"
        );
        assert!(
            c.requests.load(Ordering::Relaxed) >= CALLS,
            "{device}: {} requests for {CALLS} calls",
            c.requests.load(Ordering::Relaxed)
        );
        drop(card);
    }
    let out = b.run_env(
        &exe,
        &["device-error"],
        &[("PQSIG_DEVICE", "no-such-device")],
    );
    assert!(out.contains("checks passed"), "{out}");
}

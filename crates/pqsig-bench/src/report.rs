//! Output: a fixed-width table and JSON lines.

use std::fmt::Write as _;

/// One measured row (or a warning row when `warning` is set).
#[derive(Clone, Debug)]
pub struct Row {
    pub alg: String,
    pub op: String,
    /// `pqsig` for ours, the crate name for peers.
    pub imp: String,
    pub backend: String,
    /// `object` / `expanded` / `bytes` (absent for kernel rows).
    pub api: Option<String>,
    /// Falcon / FN-DSA rows: `native` or `emulated` binary64.
    pub fpr: Option<String>,
    /// NTT kernel rows: the variant (`radix2`, `radix4`, `winograd8`, `winograd16`).
    pub variant: Option<String>,
    pub note: Option<String>,
    pub median_ns: f64,
    pub median_ticks: f64,
    pub iters: usize,
    pub warning: Option<String>,
    /// Batch rows: items per batch call (`median_ns` is per item).
    pub batch: Option<usize>,
    /// Batch rows: threads of the batch engine.
    pub threads: Option<usize>,
}

impl Row {
    pub fn warning(
        alg: &str,
        op: &str,
        imp: &str,
        backend: &str,
        api: Option<&str>,
        msg: String,
    ) -> Row {
        Row {
            alg: alg.into(),
            op: op.into(),
            imp: imp.into(),
            backend: backend.into(),
            api: api.map(Into::into),
            fpr: None,
            variant: None,
            note: None,
            median_ns: f64::NAN,
            median_ticks: f64::NAN,
            iters: 0,
            warning: Some(msg),
            batch: None,
            threads: None,
        }
    }

    fn is_peer(&self) -> bool {
        self.warning.is_none() && self.imp != "pqsig"
    }
}

/// The fastest peer's median (ns) for this row's (alg, op), if any peer ran.
fn best_peer(rows: &[Row], alg: &str, op: &str) -> Option<f64> {
    rows.iter()
        .filter(|r| r.is_peer() && r.alg == alg && r.op == op && r.median_ns.is_finite())
        .map(|r| r.median_ns)
        .min_by(|a, b| a.partial_cmp(b).unwrap())
}

/// The table: alg, op, impl, backend, api, median µs, median ticks, ratio to the fastest
/// peer for the same (alg, op), note.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    // The op column fits the longest op name (8 unless SNOVA kernel rows are present).
    let ow = rows
        .iter()
        .map(|r| r.op.chars().count())
        .max()
        .unwrap_or(0)
        .max(8);
    let _ = writeln!(
        out,
        "{:<18} {:<ow$} {:<15} {:<9} {:<8} {:>11} {:>12} {:>9}  note",
        "alg", "op", "impl", "backend", "api", "median µs", "median ticks", "vs peer"
    );
    let _ = writeln!(out, "{}", "-".repeat(102 + ow));
    let mut last_group: Option<(String, String)> = None;
    for r in rows {
        let group = (r.alg.clone(), r.op.clone());
        if last_group.as_ref().is_some_and(|g| g.0 != group.0) {
            let _ = writeln!(out);
        }
        last_group = Some(group);
        if let Some(w) = &r.warning {
            let _ = writeln!(
                out,
                "{:<18} {:<ow$} {:<15} {:<9} {:<8} WARNING: {}",
                r.alg,
                r.op,
                r.imp,
                r.backend,
                r.api.as_deref().unwrap_or("-"),
                w
            );
            continue;
        }
        let ratio = match best_peer(rows, &r.alg, &r.op) {
            Some(b) if b > 0.0 => format!("{:.2}x", r.median_ns / b),
            _ => "-".into(),
        };
        let note = match (r.batch, r.threads) {
            (Some(n), Some(t)) => format!(
                "batch {n}, {t} thread(s){}{}",
                if r.note.is_some() { "; " } else { "" },
                r.note.as_deref().unwrap_or("")
            ),
            _ => r.note.clone().unwrap_or_default(),
        };
        let _ = writeln!(
            out,
            "{:<18} {:<ow$} {:<15} {:<9} {:<8} {:>11.2} {:>12.0} {:>9}  {}",
            r.alg,
            r.op,
            r.imp,
            r.backend,
            r.api.as_deref().unwrap_or("-"),
            r.median_ns / 1000.0,
            r.median_ticks,
            ratio,
            note
        );
    }
    out
}

/// One JSON object per row.
pub fn json_line(r: &Row) -> String {
    let mut s = String::from("{");
    let _ = write!(
        s,
        "\"alg\":{},\"op\":{},\"impl\":{},\"backend\":{}",
        q(&r.alg),
        q(&r.op),
        q(&r.imp),
        q(&r.backend)
    );
    if let Some(api) = &r.api {
        let _ = write!(s, ",\"api\":{}", q(api));
    }
    if let Some(fpr) = &r.fpr {
        let _ = write!(s, ",\"fpr\":{}", q(fpr));
    }
    if let Some(v) = &r.variant {
        let _ = write!(s, ",\"variant\":{}", q(v));
    }
    if let Some(n) = r.batch {
        let _ = write!(s, ",\"batch\":{n}");
    }
    if let Some(t) = r.threads {
        let _ = write!(s, ",\"threads\":{t}");
    }
    if let Some(w) = &r.warning {
        let _ = write!(s, ",\"warning\":{}", q(w));
    } else {
        let _ = write!(
            s,
            ",\"median_ns\":{:.1},\"median_ticks\":{:.1},\"iters\":{}",
            r.median_ns, r.median_ticks, r.iters
        );
    }
    if let Some(n) = &r.note {
        let _ = write!(s, ",\"note\":{}", q(n));
    }
    s.push('}');
    s
}

/// A JSON string literal.
fn q(v: &str) -> String {
    let mut s = String::with_capacity(v.len() + 2);
    s.push('"');
    for c in v.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

// ---------------------------------------------------------------------------------------
// SNOVA summary: the portable-vs-SIMD table (the ARMv8 study's layout, for Round 3), the
// official code's figures as reference lines, and the targets.
// ---------------------------------------------------------------------------------------

/// The official code's figures for SNOVA_I_S (not measured by this benchmark: there is
/// no SNOVA peer crate). Round-3 specification, AVX2 build: cycles.
pub const SNOVA_SPEC_AVX2_CYCLES: [(&str, f64); 2] = [("sign", 606_000.0), ("verify", 262_000.0)];
/// The official portable Round-3 C code on this machine (µs), SNOVA_I_S.
pub const SNOVA_OFFICIAL_PORTABLE_US: [(&str, f64); 3] =
    [("keygen", 186.0), ("sign", 457.0), ("verify", 222.0)];
/// Targets: SNOVA_I_S best backend (TSC ticks), and the minimum speed-up of the best
/// backend over portable for sign and verify, per set.
pub const SNOVA_TARGET_TICKS: [(&str, f64); 2] = [("sign", 450_000.0), ("verify", 180_000.0)];
pub const SNOVA_TARGET_SPEEDUP: f64 = 5.0;

fn is_snova_scheme_row(r: &Row) -> bool {
    r.warning.is_none()
        && r.imp == "pqsig"
        && r.alg.starts_with("SNOVA_")
        && matches!(r.op.as_str(), "keygen" | "sign" | "verify")
        && r.median_ns.is_finite()
}

/// The SNOVA summary (empty when no SNOVA scheme row was measured).
pub fn snova_summary(rows: &[Row]) -> String {
    let sn: Vec<&Row> = rows.iter().filter(|r| is_snova_scheme_row(r)).collect();
    if sn.is_empty() {
        return String::new();
    }
    let mut backends: Vec<&str> = Vec::new();
    for r in &sn {
        if r.backend != "portable" && !backends.contains(&r.backend.as_str()) {
            backends.push(&r.backend);
        }
    }
    let mut algs: Vec<&str> = Vec::new();
    for r in &sn {
        if !algs.contains(&r.alg.as_str()) {
            algs.push(&r.alg);
        }
    }
    let find = |alg: &str, op: &str, api: &str, b: &str| {
        sn.iter()
            .find(|r| r.alg == alg && r.op == op && r.api.as_deref() == Some(api) && r.backend == b)
            .copied()
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nSNOVA Round 3: median µs and TSC ticks per backend; impr = (portable − backend) / \
         portable; x = portable / backend"
    );
    let _ = writeln!(
        out,
        "api: object = SigningKey (secret key expanded per signature, like the reference) / \
         VerifyingKey (P expanded per call); expanded = ExpandedSigningKey; prepared = \
         PreparedVerifyingKey"
    );
    let mut head = format!(
        "{:<16} {:<6} {:<8} {:>10} {:>10}",
        "set", "op", "api", "portable µs", "ticks"
    );
    for b in &backends {
        let _ = write!(
            head,
            " | {:>9} {:>10} {:>6} {:>6}",
            format!("{b} µs"),
            "ticks",
            "impr",
            "x"
        );
    }
    let _ = writeln!(out, "{head}");
    let _ = writeln!(out, "{}", "-".repeat(head.chars().count()));
    let forms = [
        ("keygen", "object"),
        ("sign", "object"),
        ("sign", "expanded"),
        ("verify", "object"),
        ("verify", "prepared"),
    ];
    let mut verdicts = Vec::new();
    // The ≥ 5× target: how many (set, op, form) were checked, and the misses.
    let mut speedups = 0usize;
    let mut slow: Vec<String> = Vec::new();
    for alg in &algs {
        for (op, api) in forms {
            let Some(p) = find(alg, op, api, "portable") else {
                continue;
            };
            let mut line = format!(
                "{:<16} {:<6} {:<8} {:>11.1} {:>10.0}",
                alg,
                op,
                api,
                p.median_ns / 1e3,
                p.median_ticks
            );
            let mut best: Option<&Row> = None;
            for b in &backends {
                match find(alg, op, api, b) {
                    Some(r) => {
                        let impr = 100.0 * (p.median_ns - r.median_ns) / p.median_ns;
                        let _ = write!(
                            line,
                            " | {:>9.1} {:>10.0} {:>5.1}% {:>5.1}x",
                            r.median_ns / 1e3,
                            r.median_ticks,
                            impr,
                            p.median_ns / r.median_ns
                        );
                        if best.is_none_or(|x| r.median_ns < x.median_ns) {
                            best = Some(r);
                        }
                    }
                    None => {
                        let _ = write!(line, " | {:>9} {:>10} {:>6} {:>6}", "-", "-", "-", "-");
                    }
                }
            }
            let _ = writeln!(out, "{line}");
            let best = best.unwrap_or(p);
            // Targets: best ≥ 5× portable for sign and verify (same API form).
            if matches!(op, "sign" | "verify") {
                let x = p.median_ns / best.median_ns;
                speedups += 1;
                if x < SNOVA_TARGET_SPEEDUP {
                    slow.push(format!("{alg} {op} ({api}): best {} {x:.2}x", best.backend));
                }
            }
            if *alg == "SNOVA_I_S" {
                if let Some(&(_, t)) = SNOVA_TARGET_TICKS.iter().find(|(o, _)| *o == op) {
                    verdicts.push((
                        best.median_ticks < t,
                        format!(
                            "SNOVA_I_S {op} ({api}): best {} {:.0} ticks (target < {t:.0})",
                            best.backend, best.median_ticks
                        ),
                    ));
                }
                if api == "object" {
                    if let Some(&(_, us)) =
                        SNOVA_OFFICIAL_PORTABLE_US.iter().find(|(o, _)| *o == op)
                    {
                        let ours = p.median_ns / 1e3;
                        verdicts.push((
                            ours <= us,
                            format!(
                                "SNOVA_I_S {op}: portable {ours:.1} µs vs official portable C {us:.0} µs (target ≤)"
                            ),
                        ));
                    }
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "\nreference (official code, not run by this benchmark): Round-3 specification, AVX2, \
         SNOVA_I_S: sign ≈ {:.0}k cycles, verify ≈ {:.0}k cycles; official portable C (Round \
         3) on this machine, SNOVA_I_S: keygen {:.0} µs, sign {:.0} µs, verify {:.0} µs",
        SNOVA_SPEC_AVX2_CYCLES[0].1 / 1e3,
        SNOVA_SPEC_AVX2_CYCLES[1].1 / 1e3,
        SNOVA_OFFICIAL_PORTABLE_US[0].1,
        SNOVA_OFFICIAL_PORTABLE_US[1].1,
        SNOVA_OFFICIAL_PORTABLE_US[2].1
    );
    let _ = writeln!(out, "targets:");
    for (ok, v) in verdicts {
        let _ = writeln!(out, "  [{}] {v}", if ok { " ok " } else { "MISS" });
    }
    let _ = writeln!(
        out,
        "  [{}] best backend ≥ {SNOVA_TARGET_SPEEDUP}x portable (same API form, sign and verify): \
         {} of {speedups} met{}",
        if slow.is_empty() { " ok " } else { "MISS" },
        speedups - slow.len(),
        if slow.is_empty() {
            String::new()
        } else {
            format!("; not met: {}", slow.join(", "))
        }
    );
    out
}

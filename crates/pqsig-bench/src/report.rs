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
    pub note: Option<String>,
    pub median_ns: f64,
    pub median_ticks: f64,
    pub iters: usize,
    pub warning: Option<String>,
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
            note: None,
            median_ns: f64::NAN,
            median_ticks: f64::NAN,
            iters: 0,
            warning: Some(msg),
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
    let _ = writeln!(
        out,
        "{:<18} {:<8} {:<15} {:<9} {:<8} {:>11} {:>12} {:>9}  note",
        "alg", "op", "impl", "backend", "api", "median µs", "median ticks", "vs peer"
    );
    let _ = writeln!(out, "{}", "-".repeat(110));
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
                "{:<18} {:<8} {:<15} {:<9} {:<8} WARNING: {}",
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
        let _ = writeln!(
            out,
            "{:<18} {:<8} {:<15} {:<9} {:<8} {:>11.2} {:>12.0} {:>9}  {}",
            r.alg,
            r.op,
            r.imp,
            r.backend,
            r.api.as_deref().unwrap_or("-"),
            r.median_ns / 1000.0,
            r.median_ticks,
            ratio,
            r.note.as_deref().unwrap_or("")
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

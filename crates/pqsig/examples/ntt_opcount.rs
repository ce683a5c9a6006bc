//! Operation counts of the NTT variants (kernels/ntt): modular multiplications,
//! additions/subtractions and explicit reductions, counted by running the variants'
//! generic code on a counting field (instrumented), next to the closed forms of
//! `kernels/ntt/opcount.rs`, per variant, modulus, size and direction; and the butterfly
//! units alone at N = 8 and N = 16 (radix-2 layers vs the Winograd radix-8 / radix-16
//! unit), plus the cyclic DFT cores.
//!
//! Run: `cargo run -p pqsig --release --example ntt_opcount [-- --json]`.

use pqsig::kernels::ntt::opcount::{closed_form, instrumented, instrumented_dft, OpCounts};
use pqsig::kernels::ntt::NttVariant;

struct Row {
    modulus: &'static str,
    n: usize,
    variant: String,
    direction: &'static str,
    counted: OpCounts,
    closed: Option<OpCounts>,
}

fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let mut rows = Vec::new();
    // Full transforms: ML-DSA n = 256; Falcon n = 512, 1024; the units alone at 8, 16.
    let sizes: [(&str, bool, u32); 6] = [
        ("mldsa", true, 8),
        ("falcon", false, 9),
        ("falcon", false, 10),
        ("mldsa", true, 3),
        ("mldsa", true, 4),
        ("falcon", false, 4),
    ];
    for (m, lazy, logn) in sizes {
        for &v in NttVariant::ALL {
            // At N = 8 / 16 only the radix-2 layers and the matching Winograd unit.
            if logn == 3 && v != NttVariant::Radix2 && v != NttVariant::Winograd8 {
                continue;
            }
            if logn == 4 && v != NttVariant::Radix2 && v != NttVariant::Winograd16 {
                continue;
            }
            for (dir, inv) in [("forward", false), ("inverse", true)] {
                rows.push(Row {
                    modulus: m,
                    n: 1 << logn,
                    variant: v.name().to_string(),
                    direction: dir,
                    counted: instrumented(v, logn, lazy, inv),
                    closed: Some(closed_form(v, logn, lazy, inv)),
                });
            }
        }
    }
    for (m, lazy) in [("mldsa", true), ("falcon", false)] {
        for p in [8usize, 16] {
            rows.push(Row {
                modulus: m,
                n: p,
                variant: format!("winograd-dft{p} core (cyclic, no twist)"),
                direction: "forward",
                counted: instrumented_dft(p, lazy),
                closed: None,
            });
        }
    }
    if json {
        println!("[");
        for (i, r) in rows.iter().enumerate() {
            let closed = r.closed.map_or("null".to_string(), |c| {
                format!(
                    "{{\"mul\": {}, \"add\": {}, \"reduce\": {}}}",
                    c.mul, c.add, c.reduce
                )
            });
            println!(
                "  {{\"modulus\": \"{}\", \"n\": {}, \"variant\": \"{}\", \"direction\": \"{}\", \"mul\": {}, \"add\": {}, \"reduce\": {}, \"closed_form\": {}}}{}",
                r.modulus,
                r.n,
                r.variant,
                r.direction,
                r.counted.mul,
                r.counted.add,
                r.counted.reduce,
                closed,
                if i + 1 < rows.len() { "," } else { "" }
            );
        }
        println!("]");
        return;
    }
    println!(
        "{:<7} {:>5} {:<40} {:<8} {:>6} {:>6} {:>6}  {:<22}",
        "modulus", "n", "variant", "dir", "mul", "add", "red", "closed form (mul/add/red)"
    );
    for r in &rows {
        let closed = r.closed.map_or("-".to_string(), |c| {
            let ok = if c == r.counted { "=" } else { "MISMATCH" };
            format!("{}/{}/{} {ok}", c.mul, c.add, c.reduce)
        });
        println!(
            "{:<7} {:>5} {:<40} {:<8} {:>6} {:>6} {:>6}  {:<22}",
            r.modulus,
            r.n,
            r.variant,
            r.direction,
            r.counted.mul,
            r.counted.add,
            r.counted.reduce,
            closed
        );
    }
    println!(
        "\nmul: modular multiplications by constants (a product by ι = ω4 counts as one);\n\
         add: additions and subtractions; red: explicit reductions (ML-DSA's lazy field only;\n\
         Falcon's add/sub include their conditional correction). Inverse rows include the\n\
         final scaling by 1/n (n products). Cyclic cores for comparison (closed form):\n\
         radix-2 DFT-8 5 mul / 24 add, DFT-16 17 mul / 64 add (non-trivial roots only)."
    );
}

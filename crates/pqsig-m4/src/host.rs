//! The host run: the same workload and words as on the M4, native f64, no measurements.

use std::process::ExitCode;

use crate::workload::{self, Costs, Meter, Plan};

struct HostMeter;

impl Meter for HostMeter {
    fn measure<R>(&mut self, op: &mut dyn FnMut() -> R) -> (R, Costs) {
        (op(), Costs::default())
    }
}

pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plan = match Plan::parse(args.iter().map(String::as_str)) {
        Ok(p) => p,
        Err(w) => {
            eprintln!(
                "error: unknown word {:?} (words: short, Falcon-512, Falcon-1024, ML-DSA-44)",
                w.0
            );
            return ExitCode::from(2);
        }
    };
    match workload::run(&plan, &mut HostMeter, &mut |l| println!("{l}")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {f}");
            ExitCode::FAILURE
        }
    }
}

//! `pqsig device list`: the names `--device` accepts, one a line, name then description.
//! `cpu` (no device: the CPU engine, the default) comes first, then the registered
//! batch devices and then the kernel devices (NTT accelerators), in registration order.

use crate::cli::{DeviceArgs, DeviceCommand};
use crate::exit::Failure;
use crate::io::Out;
use pqsig::batch::device;

pub fn run(args: DeviceArgs) -> Result<(), Failure> {
    match args.command {
        DeviceCommand::List => list(),
    }
}

fn list() -> Result<(), Failure> {
    let mut rows = vec![(
        device::CPU.to_string(),
        "the CPU engine (default): items grouped per parameter set, ML-DSA verified in \
         lockstep, spread over all cores (--threads)"
            .to_string(),
    )];
    rows.extend(device::list().iter().map(|d| {
        let i = d.info();
        (i.name, i.description)
    }));
    rows.extend(
        pqsig::batch::kernel_devices()
            .iter()
            .map(|d| (d.name(), d.description())),
    );
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut out = Out::new();
    for (name, description) in rows {
        writeln!(out, "{name:<width$}  {description}")?;
    }
    out.flush()
}

//! Which offload device the C library's calls use: the devices `PQSIG_CARD` brings
//! (registered once, as the CLI does at start), and the kernel device `PQSIG_DEVICE`
//! names for `pqsig_mldsa_ntt_batch`.

use pqsig::batch::{kernel_device_by_name, KernelDevice};
use std::sync::{Arc, OnceLock};

/// Registers the card's devices (`card`, `card-per-call`, `card-verify`) when
/// `PQSIG_CARD` names a card socket; nothing otherwise. Idempotent, cheap after the
/// first call.
pub(crate) fn register() {
    #[cfg(target_os = "linux")]
    pqsig_card::register_from_env();
}

/// The kernel device `PQSIG_DEVICE` names, read once per process: `Ok(None)` when the
/// variable is unset, empty or `cpu` (the CPU kernels run); an error message when it
/// names no kernel device (an unknown name, or a batch device, which takes whole
/// operations and no transforms).
pub(crate) fn kernel_device() -> Result<Option<Arc<dyn KernelDevice>>, &'static str> {
    static RESOLVED: OnceLock<Result<Option<Arc<dyn KernelDevice>>, String>> = OnceLock::new();
    let resolved = RESOLVED.get_or_init(|| {
        register();
        let name = std::env::var("PQSIG_DEVICE").unwrap_or_default();
        let name = name.trim();
        if name.is_empty() || name.eq_ignore_ascii_case("cpu") {
            return Ok(None);
        }
        kernel_device_by_name(name).map(Some).ok_or_else(|| {
            let known: Vec<_> = pqsig::batch::kernel_devices()
                .iter()
                .map(|d| d.name())
                .collect();
            if known.is_empty() {
                format!(
                    "PQSIG_DEVICE={name} names no kernel device (none registered: \
                     PQSIG_CARD=PATH brings card and card-per-call)"
                )
            } else {
                format!(
                    "PQSIG_DEVICE={name} names no kernel device (known: {})",
                    known.join(", ")
                )
            }
        })
    });
    match resolved {
        Ok(dev) => Ok(dev.clone()),
        Err(message) => Err(message.as_str()),
    }
}

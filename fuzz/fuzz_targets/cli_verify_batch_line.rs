//! `pqsig verify-batch` input lines: the CLI's own line parser (compiled from its source
//! file, which has no I/O), then the decoded key and signature through the library.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/pqsig-cli/src/commands/verify_batch_line.rs"]
#[allow(dead_code)]
mod verify_batch_line;

fuzz_target!(|data: &[u8]| {
    if let Ok(Some(Ok(item))) = verify_batch_line::parse(data) {
        if let Ok(vk) = pqsig::any::VerifyingKey::from_bytes(item.alg, &item.pk) {
            let _ = vk.verify(&item.msg, &item.ctx, &item.sig);
        }
    }
});

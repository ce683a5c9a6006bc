//! The HTTP API's request bodies (pqsig-server): the JSON bodies of create, sign,
//! verify and both batch routes (parsed and turned into service inputs as the routes do),
//! and binary (application/x-pqsig-batch) batch bodies through the routes' own decoders.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig_server::http::batch::fuzz_decode_binary_batch;
use pqsig_server::http::errors::{parse_json, parse_json_owned};
use pqsig_server::http::wire::{
    CreateKeyRequest, SignBatchRequest, SignRequest, VerifyBatchRequest, VerifyRequest,
};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, body)) = data.split_first() else {
        return;
    };
    match sel % 6 {
        0 => {
            let _ = parse_json_owned::<CreateKeyRequest>(body);
        }
        1 => {
            if let Ok(req) = parse_json::<SignRequest<'_>>(body) {
                let _ = req.into_input(&bytes::Bytes::new(), sel & 0x80 != 0);
            }
        }
        2 => {
            if let Ok(req) = parse_json::<VerifyRequest<'_>>(body) {
                let _ = req.into_input(None);
            }
        }
        3 => {
            if let Ok(req) = parse_json::<SignBatchRequest<'_>>(body) {
                if let Ok(ctx) = req.default_context() {
                    let det = req.deterministic;
                    for it in req.items {
                        let _ = it.into_input(&ctx, det);
                    }
                }
            }
        }
        4 => {
            if let Ok(req) = parse_json::<VerifyBatchRequest<'_>>(body) {
                if let Ok(d) = req.defaults() {
                    for it in req.items {
                        let _ = it.into_input(Some(&d));
                    }
                }
            }
        }
        _ => {
            let _ = fuzz_decode_binary_batch(body, "k1");
        }
    }
});

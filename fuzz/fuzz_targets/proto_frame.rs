//! The socket protocol (pqsig-proto): frame headers, request and response payloads of
//! every opcode, BATCH payloads and the zero-copy VERIFY view.
//! Checks: no panic; a decoded request or response re-encodes to a payload that decodes
//! to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig_proto::codec;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    match sel % 4 {
        0 => {
            if let Ok((id, req, used)) = codec::decode_request_frame(rest, codec::MAX_PAYLOAD) {
                assert!(used <= rest.len());
                let frame = codec::encode_request(id, &req).expect("decoded request re-encodes");
                let (id2, req2, _) = codec::decode_request_frame(&frame, codec::MAX_PAYLOAD)
                    .expect("own frame decodes");
                assert!(id2 == id && req2 == req, "request frame round trip");
            }
        }
        1 => {
            if let Ok((id, resp, _)) = codec::decode_response_frame(rest, codec::MAX_PAYLOAD) {
                let frame = codec::encode_response(id, &resp).expect("decoded response re-encodes");
                let (id2, resp2, _) = codec::decode_response_frame(&frame, codec::MAX_PAYLOAD)
                    .expect("own frame decodes");
                assert!(id2 == id && resp2 == resp, "response frame round trip");
            }
        }
        2 => {
            // A payload under an opcode taken from the input (BATCH included).
            let Some((&opcode, payload)) = rest.split_first() else {
                return;
            };
            if let Ok(req) = codec::decode_request(opcode, payload) {
                let (op2, body) = codec::encode_request_payload(&req).expect("re-encodes");
                assert!(codec::decode_request(op2, &body).expect("own payload decodes") == req);
            }
            let _ = codec::decode_response(opcode, payload);
        }
        _ => {
            // BATCH payload items and the VERIFY view the server's binary batches use.
            if let Ok(items) = codec::batch_items(rest) {
                for (opcode, item) in items {
                    let _ = codec::decode_request(opcode, item);
                    let _ = codec::decode_verify_view(item);
                }
            }
            let _ = codec::decode_verify_view(rest);
        }
    }
});

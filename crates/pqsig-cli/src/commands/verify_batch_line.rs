//! One input line of `pqsig verify-batch` (the contract is in verify_batch.rs): JSON
//! parsing and field decoding, with no I/O and nothing else of the CLI, so the fuzz target
//! fuzz/fuzz_targets/cli_verify_batch_line.rs runs exactly this code.

use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;
use pqsig::Algorithm;
use serde_json::{Map, Value};

/// Standard alphabet, padding optional (as the server's JSON API takes it).
const B64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// One decoded input line.
pub struct Item {
    pub alg: Algorithm,
    pub pk: Vec<u8>,
    pub msg: Vec<u8>,
    pub sig: Vec<u8>,
    pub ctx: Vec<u8>,
}

/// One physical line without its line ending: `None` for a blank line (not an item),
/// the item or the reason it cannot be one, or `Err` when the line is not a JSON object
/// (a structural error: the caller stops with exit 2).
pub fn parse(text: &[u8]) -> Result<Option<Result<Item, String>>, String> {
    if text.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(m)) => Ok(Some(decode(&m))),
        Ok(v) => Err(format!("not a JSON object (a JSON {})", kind(&v))),
        Err(e) => Err(format!(
            "not a JSON object (invalid JSON: {})",
            json_error(&e)
        )),
    }
}

/// The item a JSON object describes, or the first thing wrong with it.
pub fn decode(obj: &Map<String, Value>) -> Result<Item, String> {
    let name = string(obj, "alg")?;
    let alg = Algorithm::from_name(name).map_err(|_| format!("unknown algorithm {:?}", name))?;
    let pk = bytes(obj, "pk")?;
    let msg = bytes(obj, "msg")?;
    let sig = bytes(obj, "sig")?;
    let ctx = match obj.get("ctx") {
        None | Some(Value::Null) => Vec::new(),
        Some(_) => bytes(obj, "ctx")?,
    };
    Ok(Item {
        alg,
        pk,
        msg,
        sig,
        ctx,
    })
}

fn string<'a>(obj: &'a Map<String, Value>, field: &str) -> Result<&'a str, String> {
    match obj.get(field) {
        None => Err(format!("missing field \"{field}\"")),
        Some(Value::String(s)) => Ok(s),
        Some(v) => Err(format!(
            "field \"{field}\" is a JSON {}, not a string",
            kind(v)
        )),
    }
}

fn bytes(obj: &Map<String, Value>, field: &str) -> Result<Vec<u8>, String> {
    B64.decode(string(obj, field)?)
        .map_err(|e| format!("field \"{field}\": invalid base64 ({e})"))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// serde_json's message with its position given as a column (the line is ours).
fn json_error(e: &serde_json::Error) -> String {
    let s = e.to_string();
    let msg = s.rfind(" at line ").map_or(s.as_str(), |i| &s[..i]);
    format!("{msg} at column {}", e.column())
}

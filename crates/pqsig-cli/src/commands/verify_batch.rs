//! `pqsig verify-batch`: JSON lines in, one verdict line per item out, in order.
//!
//! Contract (also in `--help` and the README):
//! * input: one JSON object per line, `{"alg","pk","msg","sig"[,"ctx"]}`, binary fields
//!   base64 (standard alphabet, padding optional); other fields ignored; `ctx` absent or
//!   null = empty. Blank lines (empty or whitespace only) are not items: skipped, no index.
//! * output: `{"index":I,"valid":B,"error":null|"why"}` per item, I counting items from 0.
//! * exit 0 all valid (or no items), 1 any item invalid or undecodable, 2 the input cannot
//!   be read or a line is not a JSON object (`pqsig: FILE: line N: ...`, N = physical line).
//!
//! The whole input is read and decoded before any verification, so a structural error
//! (exit 2) prints no verdicts; decoded items are then verified through the batch engine
//! in chunks of [`CHUNK`] items, each chunk's verdicts written as it completes.

use super::malformed_why;
use super::verify_batch_line::{self as batch_line, Item};
use crate::cli::VerifyBatchArgs;
use crate::exit::Failure;
use crate::io::{self, Out};
use pqsig::batch::{verify_batch_with, Message, Options, VerifyItem, VerifyKey};
use pqsig::Error;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};

/// Items per `verify_batch_with` call: large enough to fill every core and the lockstep
/// groups, small enough that verdicts start flowing early.
pub const CHUNK: usize = 4096;

pub fn run(args: VerifyBatchArgs, mut opts: Options) -> Result<(), Failure> {
    if let Some(n) = args.threads {
        opts.threads = Some(n as usize);
    }
    let shown = io::shown(&args.input);
    let entries = read_items(&args)?;
    let mut out = Out::new();
    let mut bad = 0usize;
    for (c, chunk) in entries.chunks(CHUNK).enumerate() {
        let ok: Vec<&Item> = chunk.iter().filter_map(|e| e.as_ref().ok()).collect();
        let batch: Vec<VerifyItem<'_>> = ok
            .iter()
            .map(|it| VerifyItem {
                key: VerifyKey::Encoded {
                    alg: it.alg,
                    pk: &it.pk,
                },
                message: Message::Raw(&it.msg),
                context: &it.ctx,
                signature: &it.sig,
            })
            .collect();
        let mut verdicts = verify_batch_with(&batch, &opts).into_iter();
        for (k, entry) in chunk.iter().enumerate() {
            let error = match entry {
                Ok(it) => match verdicts.next() {
                    Some(Ok(())) => None,
                    Some(Err(e)) => Some(explain(it, e)),
                    None => Some("no verdict from the batch engine".to_string()),
                },
                Err(why) => Some(why.clone()),
            };
            bad += error.is_some() as usize;
            let valid = error.is_none();
            let error = error.map_or(Value::Null, Value::String);
            writeln!(
                out,
                "{{\"index\":{},\"valid\":{valid},\"error\":{error}}}",
                c * CHUNK + k
            )?;
        }
        out.flush()?;
    }
    if bad > 0 {
        return Err(Failure::invalid(format!(
            "{shown}: {bad} of {} items not valid",
            entries.len()
        )));
    }
    Ok(())
}

/// Reads every line: an item (decoded, or the reason it cannot be), blank lines skipped.
/// An unreadable input or a line that is not a JSON object ends it (exit 2).
fn read_items(args: &VerifyBatchArgs) -> Result<Vec<Result<Item, String>>, Failure> {
    let shown = io::shown(&args.input);
    let fail = |e: std::io::Error| {
        Failure::error(format!("{shown}: cannot read input: {}", io::describe(&e)))
    };
    let reader: Box<dyn Read> = if args.input.as_os_str() == io::STDIO {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(&args.input).map_err(fail)?)
    };
    let mut reader = BufReader::with_capacity(io::CHUNK, reader);
    let mut entries = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(fail)? == 0 {
            break;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        match batch_line::parse(text) {
            Ok(Some(item)) => entries.push(item),
            Ok(None) => {}
            Err(why) => return Err(Failure::error(format!("{shown}: line {number}: {why}"))),
        }
    }
    Ok(entries)
}

/// The verdict's reason in words, from the item's own data.
fn explain(it: &Item, e: Error) -> String {
    let alg = it.alg;
    match e {
        Error::VerificationFailed => {
            "invalid signature: does not verify for this message, key and context".to_string()
        }
        Error::InvalidSignature => {
            format!("invalid signature: {}", malformed_why(alg, it.sig.len()))
        }
        Error::InvalidKey if it.pk.len() != alg.public_key_len() => format!(
            "wrong length for a public key: {} bytes, {alg} needs {}",
            it.pk.len(),
            alg.public_key_len()
        ),
        Error::InvalidKey => format!("not a valid {alg} public key"),
        Error::ContextTooLong => format!("context is {} bytes, at most 255 allowed", it.ctx.len()),
        Error::Unsupported if !it.ctx.is_empty() && !alg.supports_context() => {
            format!("{alg} takes no context string")
        }
        e => format!("{alg} verification error: {e}"),
    }
}

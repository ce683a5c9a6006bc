//! Whole-operation requests: the card verifying a batch of signatures on its own CPU
//! engine (`pqsig::batch::verify_batch`), the other way to offload — one request per
//! batch instead of one per NTT stage.
//!
//! A request is `mode = VERIFY`, `num_polys` = the item count, and a buffer (a per-call
//! region, from its offset to its end) holding the items:
//! `count: u32, then per item: alg: u8 (index in Algorithm::ALL), is_mu: u8, 0u16,
//! pk_len, msg_len, ctx_len, sig_len: u32, then pk, msg, ctx, sig` (little-endian).
//! The card writes one result byte per item at the buffer's start ([`encode_error`]).
//! Its device time is the measured CPU time of the batch (no cycle model).

use pqsig::batch::{self, device::OwnedVerifyItem, Message, VerifyItem, VerifyKey};
use pqsig::{Algorithm, DeviceError, Error};

/// Most items in one request.
pub const MAX_ITEMS: u32 = 4096;

/// The serialised job.
pub fn encode_verify(items: &[OwnedVerifyItem]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    out.extend_from_slice(&(items.len() as u32).to_le_bytes());
    for it in items {
        let alg = Algorithm::ALL.iter().position(|a| *a == it.alg)?;
        out.push(u8::try_from(alg).ok()?);
        out.push(u8::from(it.is_mu));
        out.extend_from_slice(&[0, 0]);
        for part in [&it.pk, &it.msg, &it.ctx, &it.sig] {
            out.extend_from_slice(&u32::try_from(part.len()).ok()?.to_le_bytes());
        }
        for part in [&it.pk, &it.msg, &it.ctx, &it.sig] {
            out.extend_from_slice(part);
        }
    }
    Some(out)
}

struct Parsed<'a> {
    alg: Algorithm,
    is_mu: bool,
    pk: &'a [u8],
    msg: &'a [u8],
    ctx: &'a [u8],
    sig: &'a [u8],
}

/// The next `n` bytes of `d`, if there are that many.
fn take<'a>(d: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if d.len() < n {
        return None;
    }
    let (a, b) = d.split_at(n);
    *d = b;
    Some(a)
}

/// Parses a job of `count` items; `None` if it is malformed in any way.
fn parse(data: &[u8], count: u32) -> Option<Vec<Parsed<'_>>> {
    let u32_of = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
    let mut d = data;
    if u32_of(take(&mut d, 4)?) != count as usize {
        return None;
    }
    let mut items = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let h = take(&mut d, 20)?;
        let alg = *Algorithm::ALL.get(usize::from(h[0]))?;
        let is_mu = match h[1] {
            0 => false,
            1 => true,
            _ => return None,
        };
        let lens = [
            u32_of(&h[4..]),
            u32_of(&h[8..]),
            u32_of(&h[12..]),
            u32_of(&h[16..]),
        ];
        let pk = take(&mut d, lens[0])?;
        let msg = take(&mut d, lens[1])?;
        let ctx = take(&mut d, lens[2])?;
        let sig = take(&mut d, lens[3])?;
        items.push(Parsed {
            alg,
            is_mu,
            pk,
            msg,
            ctx,
            sig,
        });
    }
    Some(items)
}

/// Runs a verification job (the card's side). `None`: malformed.
pub fn run_verify(data: &[u8], count: u32) -> Option<Vec<u8>> {
    if count > MAX_ITEMS {
        return None;
    }
    let parsed = parse(data, count)?;
    let items: Vec<VerifyItem<'_>> = parsed
        .iter()
        .map(|p| VerifyItem {
            key: VerifyKey::Encoded {
                alg: p.alg,
                pk: p.pk,
            },
            message: if p.is_mu {
                Message::Mu(p.msg)
            } else {
                Message::Raw(p.msg)
            },
            context: p.ctx,
            signature: p.sig,
        })
        .collect();
    Some(
        batch::verify_batch(&items)
            .iter()
            .map(|r| encode_error(*r))
            .collect(),
    )
}

/// One result as a byte: 0 = valid.
pub fn encode_error(r: Result<(), Error>) -> u8 {
    match r {
        Ok(()) => 0,
        Err(Error::InvalidKey) => 1,
        Err(Error::InvalidSignature) => 2,
        Err(Error::VerificationFailed) => 3,
        Err(Error::ContextTooLong) => 4,
        Err(Error::InvalidLength) => 5,
        Err(Error::UnknownAlgorithm) => 6,
        Err(Error::BackendUnavailable) => 7,
        Err(Error::RandomnessFailure) => 8,
        Err(Error::UnsupportedHash) => 9,
        Err(Error::Unsupported) => 10,
        Err(Error::Device(_)) => 11,
        Err(_) => 255,
    }
}

/// The result a byte stands for; `None` for a byte no result encodes to (the job then
/// counts as failed, and the engine redoes it on the CPU).
pub fn decode_error(b: u8) -> Option<Result<(), Error>> {
    Some(match b {
        0 => Ok(()),
        1 => Err(Error::InvalidKey),
        2 => Err(Error::InvalidSignature),
        3 => Err(Error::VerificationFailed),
        4 => Err(Error::ContextTooLong),
        5 => Err(Error::InvalidLength),
        6 => Err(Error::UnknownAlgorithm),
        7 => Err(Error::BackendUnavailable),
        8 => Err(Error::RandomnessFailure),
        9 => Err(Error::UnsupportedHash),
        10 => Err(Error::Unsupported),
        11 => Err(Error::Device(DeviceError::Failed)),
        _ => return None,
    })
}

//! SamplerZ across a device boundary: the request a device gets, the reply it gives, and
//! the CPU model of a device ([`serve_on_cpu`]), the golden model for a hardware one.
//!
//! # The cut
//! As in the Falcon co-design the project follows, the host keeps the randomness (the
//! ChaCha20 PRNG and its 512-byte windows) and computes each request's centre and 1/σ;
//! the device runs the base sampler, the sign bit and BerExp. BerExp reads a
//! data-dependent number of bytes, and the reference's stream has a refill rule (a
//! `u64` read drops the last bytes of a window when fewer than nine are left), so the
//! device cannot be handed "n bytes": it gets the **current window and read position,
//! plus the windows that follow**, and replies with where the stream stands afterwards
//! (how many of those windows it entered, and the read position). The host then moves
//! its own stream to the same place.
//!
//! Why the host supplies the bytes instead of the device owning a PRNG: the device stays
//! stateless between requests, so any request can be re-issued (with more windows when
//! the device ran out: [`SamplerZReply::NeedMore`]) or redone on the CPU after a fault
//! with a bit-identical result, and the PRNG key never leaves the host. In hardware the
//! windows would be streamed once each into a small window RAM (two or three windows):
//! 512 bytes per window, about 17 pairs of requests, instead of per request.
//!
//! # What a request holds
//! Falcon's ffSampling needs each leaf's two integers before it can compute the next
//! leaf's centres, so within one signature a request is one pair (the two real
//! coordinates of a complex leaf, same 1/σ): `n/2` requests per signing attempt.
//!
//! # Checks on a reply
//! The host accepts a reply only if the stream position is consistent (no more windows
//! entered than supplied, a position inside the window, forward progress) and every
//! output lies in `floor(mu) + [-18, 19]`, the base sampler's range. Otherwise, or on an
//! error, the host samples on the CPU from the untouched stream. A device can therefore
//! slow a signature down or, by lying within those bounds, change it; it cannot make
//! the host read outside its buffers or loop.

use super::portable::rcdt_scan;
use super::{sample_one_or_stop, Refill, Request, Stream, Window, WINDOW};
use crate::kernels::falcon::fpr::Fpr;
use crate::DeviceError;
use core::cell::Cell;

/// Most windows a host supplies ahead of the current one. A pair of requests reads
/// about 30 bytes and a window holds 512, so more than one is needed with probability
/// well below 2^-40; the host doubles from one window up to this, then uses the CPU.
pub const MAX_AHEAD: usize = 4;

/// One SamplerZ request to a device.
pub struct SamplerZRequest<'a> {
    /// The degree's σ_min (`fpr::SIGMA_MIN[logn]`).
    pub sigma_min: Fpr,
    /// The requests, served in order (bounds: [`super`] module docs).
    pub reqs: &'a [Request],
    /// The current window.
    pub window: &'a [u8; WINDOW],
    /// Read position in `window` (`WINDOW`: empty, the first read refills).
    pub pos: usize,
    /// The windows that follow `window`, in order.
    pub ahead: &'a [[u8; WINDOW]],
}

/// Where a served request left the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamAdvance {
    /// Windows of `ahead` entered (0: still in `window`).
    pub refills: usize,
    /// Read position in the window the stream is in now.
    pub pos: usize,
}

/// A device's answer to a [`SamplerZRequest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplerZReply {
    /// `out[..reqs.len()]` holds the integers; the stream advanced so.
    Done(StreamAdvance),
    /// The supplied windows ran out before the last request was decided; nothing was
    /// output. Re-issue with more windows.
    NeedMore,
}

/// Replays supplied windows as the PRNG's refills. Past the last one it marks the
/// stream exhausted and serves zeros; the model stops at the end of that attempt and
/// discards everything.
struct Replay<'a> {
    ahead: &'a [[u8; WINDOW]],
    next: usize,
    exhausted: &'a Cell<bool>,
}

impl Refill for Replay<'_> {
    fn refill(&mut self, window: &mut [u8; WINDOW]) {
        match self.ahead.get(self.next) {
            Some(w) => window.copy_from_slice(w),
            None => {
                self.exhausted.set(true);
                window.fill(0);
            }
        }
        self.next += 1;
    }
}

/// Serves `req` on the CPU exactly as a device must: the outputs and the stream advance
/// the signer's own stream would have (the reference's serial loop, as the portable
/// kernel runs it). `out` must hold `req.reqs.len()` values. `DeviceError::Declined` for
/// a malformed request (a position past the window, `out` too short). Bounded work: an
/// attempt that runs past the supplied windows ends the request with `NeedMore`.
pub fn serve_on_cpu(
    req: &SamplerZRequest<'_>,
    out: &mut [i32],
) -> Result<SamplerZReply, DeviceError> {
    if req.pos > WINDOW || out.len() < req.reqs.len() {
        return Err(DeviceError::Declined);
    }
    // A private copy of the window (the stream type carries the kernels' cache with it).
    let mut window = Window::default();
    window.bytes.copy_from_slice(req.window);
    window.pos = req.pos;
    let exhausted = Cell::new(false);
    let mut src = Replay {
        ahead: req.ahead,
        next: 0,
        exhausted: &exhausted,
    };
    let mut tmp = zeroize::Zeroizing::new(alloc::vec![0i32; req.reqs.len()]);
    {
        let mut stream = Stream {
            window: &mut window,
            source: &mut src,
        };
        for (o, r) in tmp.iter_mut().zip(req.reqs) {
            let z = sample_one_or_stop(&mut stream, req.sigma_min, r, &rcdt_scan, || {
                exhausted.get()
            });
            match z {
                Some(z) if !exhausted.get() => *o = z,
                _ => return Ok(SamplerZReply::NeedMore),
            }
        }
    }
    out[..tmp.len()].copy_from_slice(&tmp);
    Ok(SamplerZReply::Done(StreamAdvance {
        refills: src.next,
        pos: window.pos,
    }))
}

#[cfg(feature = "std")]
/// Whether a reply's stream advance is possible for a request at `pos` with `supplied`
/// windows ahead (see the module docs).
pub(crate) fn advance_ok(adv: StreamAdvance, pos: usize, supplied: usize) -> bool {
    adv.refills <= supplied && adv.pos < WINDOW && (adv.refills > 0 || adv.pos > pos)
}

#[cfg(feature = "std")]
/// Whether every output lies in `floor(mu) + [-18, 19]` (no early exit: one answer for
/// the whole batch).
pub(crate) fn outputs_ok(reqs: &[Request], out: &[i32]) -> bool {
    let mut ok = out.len() >= reqs.len();
    for (r, &z) in reqs.iter().zip(out) {
        let d = i64::from(z) - r.mu.floor();
        ok &= (-18..=19).contains(&d);
    }
    ok
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::kernels::falcon::fpr;
    use crate::kernels::falcon::samplerz::portable;

    /// A source of deterministic windows standing in for the PRNG.
    struct Windows {
        state: u64,
    }
    impl Windows {
        fn make(&mut self) -> [u8; WINDOW] {
            let mut w = [0u8; WINDOW];
            for b in w.iter_mut() {
                self.state ^= self.state << 13;
                self.state ^= self.state >> 7;
                self.state ^= self.state << 17;
                *b = (self.state >> 32) as u8;
            }
            w
        }
    }

    /// The CPU model of a device gives the stream kernel's outputs and stream advance,
    /// for every read position and request count, and asks for more windows exactly when
    /// the supplied ones do not suffice.
    #[test]
    fn cpu_model_matches_the_stream_kernel() {
        let k = &portable::KERNELS;
        let sigma_min = fpr::SIGMA_MIN[9];
        let mut gen = Windows {
            state: 0x9E37_79B9_7F4A_7C15,
        };
        let mut need_more = 0;
        for case in 0..400usize {
            let n = 1 + case % 40;
            // 1/σ inside Falcon's leaf range for logn 9, [1/1.8205, 1/σ_min].
            let reqs: alloc::vec::Vec<Request> = (0..n)
                .map(|i| Request {
                    mu: Fpr::from_bits(((i as f64) * 37.25 - 400.5 + case as f64 / 7.0).to_bits()),
                    isigma: Fpr::from_bits(
                        (0.55 + 0.23 * ((i * 7 + case) % 10) as f64 / 10.0).to_bits(),
                    ),
                })
                .collect();
            let windows: alloc::vec::Vec<[u8; WINDOW]> = (0..6).map(|_| gen.make()).collect();
            let pos = (case * 53) % (WINDOW + 1);
            // Reference: the stream itself over the same windows.
            let mut w = Window::default();
            w.bytes.copy_from_slice(&windows[0]);
            w.pos = pos;
            let dry = Cell::new(false);
            let mut src = Replay {
                ahead: &windows[1..],
                next: 0,
                exhausted: &dry,
            };
            let mut want = alloc::vec![0i32; n];
            (k.sample)(
                &mut Stream {
                    window: &mut w,
                    source: &mut src,
                },
                sigma_min,
                &reqs,
                &mut want,
            );
            assert!(!dry.get());
            for supplied in 0..=2usize {
                let req = SamplerZRequest {
                    sigma_min,
                    reqs: &reqs,
                    window: &windows[0],
                    pos,
                    ahead: &windows[1..1 + supplied],
                };
                let mut got = alloc::vec![0i32; n];
                match serve_on_cpu(&req, &mut got).unwrap() {
                    SamplerZReply::Done(adv) => {
                        assert_eq!(got, want, "case {case}");
                        assert_eq!(
                            adv,
                            StreamAdvance {
                                refills: src.next,
                                pos: w.pos
                            }
                        );
                        assert!(advance_ok(adv, pos, supplied));
                        assert!(outputs_ok(&reqs, &got));
                    }
                    SamplerZReply::NeedMore => {
                        assert!(
                            src.next > supplied,
                            "case {case}: NeedMore with enough windows"
                        );
                        need_more += 1;
                    }
                }
            }
        }
        assert!(need_more > 0, "no case ran out of windows");
    }

    #[test]
    fn malformed_requests_are_declined() {
        let w = [0u8; WINDOW];
        let reqs = [Request::default(); 2];
        let req = SamplerZRequest {
            sigma_min: fpr::SIGMA_MIN[9],
            reqs: &reqs,
            window: &w,
            pos: WINDOW + 1,
            ahead: &[],
        };
        assert_eq!(serve_on_cpu(&req, &mut [0; 2]), Err(DeviceError::Declined));
        let req = SamplerZRequest { pos: 0, ..req };
        assert_eq!(serve_on_cpu(&req, &mut [0; 1]), Err(DeviceError::Declined));
        assert!(!advance_ok(StreamAdvance { refills: 2, pos: 3 }, 0, 1));
        assert!(!advance_ok(
            StreamAdvance {
                refills: 0,
                pos: 10
            },
            10,
            1
        ));
        assert!(!advance_ok(
            StreamAdvance {
                refills: 1,
                pos: WINDOW
            },
            0,
            1
        ));
        assert!(!outputs_ok(&reqs, &[0, 20]));
        assert!(outputs_ok(&reqs, &[0, 19]));
    }
}

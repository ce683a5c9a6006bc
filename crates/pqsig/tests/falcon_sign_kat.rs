//! Falcon round-3 signing against the NIST KAT files, byte for byte: `round3/` (Falcon-512
//! and Falcon-1024, variable-length signatures in the NIST `sm` layout) and
//! `round3-padded/` (666- and 1280-byte padded signatures, `sm = sig ‖ msg`), 100
//! records each.
//!
//! Per record the NIST DRBG is recreated from the record's seed and drawn as the KAT
//! generator does: 48 bytes (keygen; discarded, the secret key comes from the file), 40
//! (nonce), 48 (signing seed). The message is signed with the dynamic signer (compact
//! key) and with the expanded-key signer, on every available backend; both must give the
//! record's `sm` (the reference's `sign_dyn` and `sign_tree` agree on all 400 records, so
//! the expanded mode must reproduce the KATs too).
//!
//! The KAT tests need the `kat` feature (the DRBG): `cargo test -p pqsig --features kat
//! --test falcon_sign_kat`.
//!
//! The toy degrees (logn 1..=8) have no KAT files: keys and signatures made by the
//! reference code are embedded below (digests), signed again here in both modes and on
//! every backend, and checked with the verifier.

mod common;

#[cfg(feature = "kat")]
use common::{backends, parse_rsp, unhex};
use pqsig::error::Error;
use pqsig::kernels::internals::falcon::sign::round3::{Format, SEED_LEN};
use pqsig::kernels::internals::falcon::sign::{CompactKey, ExpandedKey};
#[cfg(feature = "kat")]
use pqsig::rng::drbg::KatDrbg;

#[cfg(feature = "kat")]
/// The nonce and the signing seed of a record: DRBG draws 2 and 3.
fn drbg_draws(seed: &[u8]) -> ([u8; 40], [u8; SEED_LEN]) {
    let mut d = KatDrbg::new(seed.try_into().expect("48-byte seed"));
    let mut keygen = [0u8; 48];
    d.fill(&mut keygen);
    let mut nonce = [0u8; 40];
    d.fill(&mut nonce);
    let mut sseed = [0u8; SEED_LEN];
    d.fill(&mut sseed);
    (nonce, sseed)
}

#[cfg(feature = "kat")]
/// The NIST `sm` from a detached signature (`0x30 + logn ‖ nonce ‖ comp(s2)`).
fn to_sm(sig: &[u8], msg: &[u8], format: Format) -> Vec<u8> {
    match format {
        Format::Padded => [sig, msg].concat(),
        Format::Compressed => {
            let comp = &sig[41..];
            let siglen = comp.len() + 1;
            let mut sm = vec![(siglen >> 8) as u8, siglen as u8];
            sm.extend_from_slice(&sig[1..41]);
            sm.extend_from_slice(msg);
            sm.push(0x20 + (sig[0] & 0x0F));
            sm.extend_from_slice(comp);
            sm
        }
    }
}

#[cfg(feature = "kat")]
fn run(rel: &str, logn: u32, format: Format) {
    run_on(rel, logn, format, &backends())
}

#[cfg(feature = "kat")]
fn run_on(rel: &str, logn: u32, format: Format, backends: &[pqsig::Backend]) {
    let recs = parse_rsp(rel);
    assert_eq!(recs.len(), 100, "{rel}: record count");
    for &b in backends {
        let (mut ok_dyn, mut ok_tree) = (0, 0);
        for (i, r) in recs.iter().enumerate() {
            assert_eq!(r.count, i, "{rel}: record order");
            let (nonce, sseed) = drbg_draws(&r.seed);
            let ck = CompactKey::from_bytes(&r.sk)
                .unwrap_or_else(|e| panic!("{rel} #{i}: sk: {e}"))
                .with_backend(b);
            assert_eq!(ck.logn(), logn);
            let sig = ck
                .sign_round3(&r.msg, &nonce, &sseed, format)
                .expect("sign_dyn");
            if to_sm(&sig, &r.msg, format) == r.sm {
                ok_dyn += 1;
            } else {
                eprintln!("{rel} #{i} ({b}): dynamic signature differs");
            }
            let ek = ExpandedKey::from_bytes_with_backend(&r.sk, b).expect("expand");
            assert_eq!(ek.backend(), ck.backend());
            let sig2 = ek
                .sign_round3(&r.msg, &nonce, &sseed, format)
                .expect("sign_tree");
            if to_sm(&sig2, &r.msg, format) == r.sm {
                ok_tree += 1;
            } else {
                eprintln!("{rel} #{i} ({b}): expanded-key signature differs");
            }
        }
        println!("{rel} ({b}): dynamic {ok_dyn}/100, expanded {ok_tree}/100");
        assert_eq!((ok_dyn, ok_tree), (100, 100), "{rel} ({b})");
    }
}

#[cfg(feature = "kat")]
#[test]
fn falcon512_kat() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon512_kat_once);
}

fn falcon512_kat_once() {
    run("falcon/round3/falcon512-KAT.rsp", 9, Format::Compressed);
}

#[cfg(feature = "kat")]
#[test]
fn falcon1024_kat() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon1024_kat_once);
}

fn falcon1024_kat_once() {
    run("falcon/round3/falcon1024-KAT.rsp", 10, Format::Compressed);
}

#[cfg(feature = "kat")]
#[test]
fn falcon_padded_512_kat() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon_padded_512_kat_once);
}

fn falcon_padded_512_kat_once() {
    run(
        "falcon/round3-padded/falcon-padded-512-KAT.rsp",
        9,
        Format::Padded,
    );
}

#[cfg(feature = "kat")]
#[test]
fn falcon_padded_1024_kat() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon_padded_1024_kat_once);
}

fn falcon_padded_1024_kat_once() {
    run(
        "falcon/round3-padded/falcon-padded-1024-KAT.rsp",
        10,
        Format::Padded,
    );
}

/// A SamplerZ device (the CPU model of `samplerz::device`) that misbehaves on purpose:
/// it asks for more windows on every fifth request before serving it, answers every
/// eleventh with an impossible stream position and fails every thirteenth. The
/// signatures must still be the KATs' (the host retries, or samples on the CPU).
#[cfg(feature = "kat")]
mod samplerz_device {
    use pqsig::batch::{KernelDevice, MlDsaPoly, TransformMode};
    use pqsig::kernels::falcon::samplerz::device::{
        serve_on_cpu, SamplerZReply, SamplerZRequest, StreamAdvance,
    };
    use pqsig::DeviceError;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[derive(Default)]
    pub struct Flaky {
        pub calls: AtomicU64,
        pub served: AtomicU64,
        pub need_more: AtomicU64,
        pub faults: AtomicU64,
    }

    impl KernelDevice for Flaky {
        fn name(&self) -> String {
            "flaky-samplerz".into()
        }
        fn max_polys(&self) -> usize {
            1
        }
        fn supports(&self, _: TransformMode) -> bool {
            false
        }
        fn transform_mldsa(
            &self,
            _: TransformMode,
            _: &mut [MlDsaPoly],
        ) -> Result<(), DeviceError> {
            Err(DeviceError::Declined)
        }
        fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
            Err(DeviceError::Declined)
        }
        fn supports_samplerz(&self) -> bool {
            true
        }
        fn samplerz(
            &self,
            req: &SamplerZRequest<'_>,
            out: &mut [i32],
        ) -> Result<SamplerZReply, DeviceError> {
            let i = self.calls.fetch_add(1, Ordering::Relaxed);
            if i % 5 == 1 && req.ahead.len() == 1 {
                self.need_more.fetch_add(1, Ordering::Relaxed);
                return Ok(SamplerZReply::NeedMore);
            }
            if i % 11 == 3 {
                self.faults.fetch_add(1, Ordering::Relaxed);
                return Ok(SamplerZReply::Done(StreamAdvance {
                    refills: req.ahead.len() + 1,
                    pos: 0,
                }));
            }
            if i % 13 == 4 {
                self.faults.fetch_add(1, Ordering::Relaxed);
                return Err(DeviceError::Failed);
            }
            let r = serve_on_cpu(req, out);
            if matches!(r, Ok(SamplerZReply::Done(_))) {
                self.served.fetch_add(1, Ordering::Relaxed);
            }
            r
        }
    }
}

/// All 400 round-3 KAT records signed (both signers, active backend) with every SamplerZ
/// request going to a device first: the host/device cut of the sampler is exact.
#[cfg(feature = "kat")]
#[test]
fn kats_through_a_samplerz_device() {
    use std::sync::atomic::Ordering;
    use std::sync::Arc;
    let dev = Arc::new(samplerz_device::Flaky::default());
    pqsig::batch::set_kernel_device(Some(dev.clone()));
    let b = [pqsig::backend::active()];
    let r = std::panic::catch_unwind(|| {
        run_on("falcon/round3/falcon512-KAT.rsp", 9, Format::Compressed, &b);
        run_on(
            "falcon/round3/falcon1024-KAT.rsp",
            10,
            Format::Compressed,
            &b,
        );
        run_on(
            "falcon/round3-padded/falcon-padded-512-KAT.rsp",
            9,
            Format::Padded,
            &b,
        );
        run_on(
            "falcon/round3-padded/falcon-padded-1024-KAT.rsp",
            10,
            Format::Padded,
            &b,
        );
    });
    pqsig::batch::set_kernel_device(None);
    if let Err(e) = r {
        std::panic::resume_unwind(e);
    }
    let served = dev.served.load(Ordering::Relaxed);
    let need_more = dev.need_more.load(Ordering::Relaxed);
    let faults = dev.faults.load(Ordering::Relaxed);
    println!("samplerz device: {served} requests served, {need_more} NeedMore, {faults} faults");
    // 800 signatures of n/2 pairs each (at least one attempt): most served by the device.
    assert!(served >= 800 * 256 / 2, "served {served}");
    assert!(need_more > 0 && faults > 0);
}

/// Keys and signature digests of the reference (PQClean falcon-512/clean `keygen` with
/// SHAKE256("pqsig small key {logn}"), then `sign_dyn` / `sign_tree` and `comp_encode`
/// exactly as its `crypto_sign` does, with the nonces, seeds and messages of
/// [`small_inputs`]): (logn, sk, [(message index, padded, length, SHAKE256 of the
/// signature)]).
/// One small-degree signature: (message index, padded, length, SHAKE256 of it).
type SmallSig = (usize, bool, usize, &'static str);

#[rustfmt::skip]
const SMALL: &[(u32, &str, [SmallSig; 6])] = &[
    (1,
     "51af1a1160e120",
     [
        (0, false, 44, "76af022ead34ef9aad77177621710c84ab7f9d6262f65cb18a90e07fe247f6e0"),
        (0, true, 44, "76af022ead34ef9aad77177621710c84ab7f9d6262f65cb18a90e07fe247f6e0"),
        (1, false, 44, "59405a98c151e5f15f8feace17df044670549d76aad6d734ece98f2b0aee5231"),
        (1, true, 44, "59405a98c151e5f15f8feace17df044670549d76aad6d734ece98f2b0aee5231"),
        (2, false, 44, "f2b19a1142ab09f006fe4a165f4592333d595a1a3159a878f14aca5dd116965e"),
        (2, true, 44, "f2b19a1142ab09f006fe4a165f4592333d595a1a3159a878f14aca5dd116965e"),
     ]),
    (2,
     "524aeed1ce2ae2e322cc13e2d3",
     [
        (0, false, 46, "dfb4dabb649d07a9a97e4e829a5eff33a69a551cf79dde5ee931092ae807a922"),
        (0, true, 47, "4aaa1136f59a0d2177ca071c85fc9b56d607065de976bc6c96f3047929c8fb2a"),
        (1, false, 46, "ec60b1521daa2df940d04809d545fa69b2f4be6602d9ceb98b2cd764ecf09543"),
        (1, true, 47, "ccbc155e668a840a0669cde5ae925705478fda670b949a9a4f2394f414e4ad81"),
        (2, false, 46, "99c1fa33ab10d5295c4ae109a54ba777d9b84c7b66c58341728f32284dbe63d8"),
        (2, true, 47, "1527f9539646a22988fdf4d715a46a47f8d58fc233bac5f01e58420ac9b1deb5"),
     ]),
    (3,
     "53f3080127f92b26d81a00c7f4c9fffad6f0e729fedc08a2f3",
     [
        (0, false, 51, "b1935e470e1ad48b3ffce5955655cc2f70afc95c6b9fdf13db3405767f1ebbd8"),
        (0, true, 52, "fb05656d63f08fcf743c8468acf0dd2cb1ec1d18b0292846ce73fd72cdf4cdd2"),
        (1, false, 51, "30b864f5930b4bad6b4eee9344a095ee38b5e3fc9f9fd3dbf741fdf544deed27"),
        (1, true, 52, "94cec629e95032a7df7a30a48fe913ad70dfe26cde17d1c8ff7ec264836606dc"),
        (2, false, 51, "dfda908a4ba576e6b1e2684d7877ac3b907a1171799529a6507434f1ad0e18f1"),
        (2, true, 52, "14c2054f5c60a4b235ed5c0a19d8443d2ff2208ac710bee203df46290a9c8950"),
     ]),
    (4,
     "54f6eee7efdc10e40c0022f1f10a1e1419edf0160bfc1300f0e7db0b09edd20126fcfd25c9fdebf6c82df6eb\
      1afe1c05ec",
     [
        (0, false, 60, "9cfadfb79e2ba966e6057a356b717ce184b2325c6ca139a80f76c9fc991a0733"),
        (0, true, 63, "97d1d63ac8e3c89ba99356c95b5a8787f19842a83c0e04b67c724c18369ff653"),
        (1, false, 61, "7367dfaf2e360de85d64d950fbc5f2598bd34ec229a663f8c1f24cadd800ca0e"),
        (1, true, 63, "33c4fff50d05facd05f97cd66e16352661fd730f23a6e2e14c9955b4314a7758"),
        (2, false, 60, "c916792c080c187a4db869ba4525202a1325289e8ec00049989cddde508851d9"),
        (2, true, 63, "dc70a49d780d747715658a2a83836fca237df2c1113eca5cdf490ae542b11b38"),
     ]),
    (5,
     "550ce309f7dcf3030116ff030f18f90e04f1fe04110ee2f2e11af5db05fde8fb090814fcf1f2f7fbf505ed1b\
      0e04fe1803fef1f900f522ff0a0807e703040104ebfff718fabf27fe120c01045cf11412e2f2ef2f1badfa3b\
      184ae4e212f7e01b0c",
     [
        (0, false, 79, "121b9f0a914529e0900a28ebcedfad1ad4c3a75d39cfb6ea435c7c0915ea2ed2"),
        (0, true, 82, "7b2e0294ac2b37487e08e867410c6f010536ff769494071e43e6a637703b079c"),
        (1, false, 80, "b62ed932993a9d44ff7eb3064090937139953d3f28b541fca25049548f407227"),
        (1, true, 82, "a4bc24678bdba4a721af4441924333e45fbef9fb1b9c843a5778156fe2343ef9"),
        (2, false, 80, "9caa39eceab90879f31d899f2f8bc50a74c3c3b3e6d811d5467bb001d84e1001"),
        (2, true, 82, "c46928b9ac4fded43947741f0f7739e00039a5bdc729a5064951875dff337ff1"),
     ]),
    (6,
     "560fdfe7bedd08911a0868bf8046792414010ea1cbf11bf83021a07ffb20388000227ef81fe42f8fbe818905\
      dfefef3d3793fc10685e618387c22f9eadc4c11103cce861813a7e1c279ff2227d8300583f2083800309e83f\
      f04042e7e2237870c202f5f9dc21513c8503fde428709ebf820df9f1e5dce1f0dd0602e4d4f338f5c624def0\
      2d17f903fce8b90f1afae419d6f7d309f1c3ef0cf11aeaff1702f61c082f2bdee8310a15ed1b071c3802fff1\
      11",
     [
        (0, false, 118, "e488475b11289b39e00bd9a82aa0a4aa05f48fc165f384be79533fc0841565b0"),
        (0, true, 122, "7a1344651ff1e87ff37c4bdda22b40f8a905fdd49a3a80bf9b5fa7ad20c3e6c1"),
        (1, false, 117, "920de1334735ad180a13fe0de6830b1efe8c68f71e961f919738b0e4740e50cd"),
        (1, true, 122, "e567d74bb7b53e02a90adb97ce7ea961364661bc1b42af020ce2f0466988d1ab"),
        (2, false, 116, "254e90b2c957f5a9ccbaef5d8fdbd7e2d6418524a20d4f62efa775fab282032e"),
        (2, true, 122, "eb1718393299e4a305b0ea73db75cb0c9a84aab0c3fe85d5b1b8827c4faa524a"),
     ]),
    (7,
     "5705c400be5dfd0ff41858df5efc7702178f4f1e45761018392f1cc08107e4809efd01800bf00f50de400904\
      1fffff3c7e8600136fe000c1fcedf43fc1bef88cf1f01801be0586f7c4a761dfb97611f3d7c001007ff01407\
      a0403c0304680fbfff77021bf7b7dea0b903fbe3d800c03f8ff7f80850813e7dfc1c48505ec0f7fff8280082\
      81f210104f8f9bfcfaf5e827c1fec006fc07881ede7e77100c101100fdf80e0447bfbe41870a17cf5f227cfe\
      ec0c27cee201f3f2245750de7f8cfbcf47b01e417ff9e3af91fd3ff6e1fc0fbffffa8dfa30283000bdfc1050\
      07ffe2447afbf7f0261e2611192d01d9daf107d2f922e503ea070c0c18e5f71ed9d9f511b7fef7fb29010ad2\
      e7eed9040a06f5d91ef71123f1c41d45cae521f70515f41fee1c08ece8d7ef341810e42928e4e3e904fdffe5\
      ec1ae2ecef1907f3f203f414dee204091bd2121d26fbf5291207fdd7040fe5ed1d0102200a03d6070fe40c0c\
      e6",
     [
        (0, false, 197, "aa35b57dd5663da9d53d7b48c65302616a2e39bb1b86d6249839eb3307003f42"),
        (0, true, 200, "6c62f8411cfaa4fd415b820b082b3299ed18b941b88d5135d2c8993dead32206"),
        (1, false, 193, "5536d9e4d3ff8f06dc7de1760da5a6c5fd5a2249a5918defc4d566990f1be40f"),
        (1, true, 200, "ca1fe67041a215648459e1d694af20375b3bdea4896b842b787fa81321e2c4cb"),
        (2, false, 194, "7fc659a316a58456e00fcf2bcd170dbf286a9765b11c0870870317e6b8c4ec40"),
        (2, true, 200, "24f1b49d4efa2305597b13706e9ded09403f5eabf2d352496ca18049849f3dc7"),
     ]),
    (8,
     "58045e06f78efa20213e10503eef71c0e3df08dc7fc5f46f7a1bd04027c27908317b384fbe17f17cffbe4110\
      7034f0a03f17b0bcef5f7bf41e7ef4427f0c413cfc117cec21fd2f30800c903b0390bfd82f80ffee41f40fc9\
      1bcfbd27d0be07e17af03e402f9e3f243f35ffc27e079f3bef9f06fb70c6f420fa04c081ebef3ef7903f1441\
      42e040bb07cf751101c5f7fec517ff44f011b4fcdf85041fbe27c0800bffc0f042c6f7a0f0086f412fe07b17\
      fe0803c1c9ffe142ec114107e07f07de8104404117df0213ceb814517ff4023fef9045f80f440b1efd300fc0\
      f830552ffe4003d0beeb8fbbe86f370f8042dbdd87249f44f45ebd03f0410b708b24004600aff7fb70480ff1\
      42fb4108f040410c3fb6efdfbbff3c364c8fbdf4200207b133f7f0bafc60c0ebe040f8200007cf821ff07f07\
      c07df7e07d0fa04dfcb000ffa1060be205f84ec21800c813afc8c09140f37f89f42d84e80042f87ffc142403\
      13ce47e02f80140fc4f42f7b30417de3f07f2b9100dbf07bf7d0c6e7c40aeb80bf12fe351c200715e8fdcc19\
      0bdf27eef30aca0de4ed0bf50befe6e7e821012e1ede25f5f5eefc1621060ef204271a010febda00e9ea2b1e\
      e3dbe304e93528ed0030f317ddfed70015f51ff4f60ceb0d19fd1c0f04ecf9f4fb120dfd0901f7060e03d32e\
      f313f311fcf2ec200a0e19f902eaebd80b0b1c1b2fb10ded2afd00f7f7fdf8fbff0cfaf11e01fbf0f74101e4\
      feecfc08e409ef0a2c21f6efed082ffa050805ea13fb071006e2ebd105b2f3e333152c03eff8e70f24e41c1e\
      feebeb4621060c0f17e909e4191400fbffe42409f7fce5c737e6f5fa0b26f2eff4fc06f2f0251ad60a13fd0f\
      15fd20e843d90e11e708e9d5f91316e7fa08f4e8fabbf4eccf",
     [
        (0, false, 348, "187094e78733f37de5d39420f3746bb04ffe523f6bdf4eb491e28cba239ab4df"),
        (0, true, 356, "77d16b674bc499f3b63c6effa97a2ae09692157e9e063ac06ba357ea5fde5bc1"),
        (1, false, 349, "0b634c6bfde643f195f7d8fc59dd81a82356bd9b8b59fd235e10bd4ce8b623b4"),
        (1, true, 356, "ced77f29f0a785cbe2f479020a28a333ecd8f2880c63e5cd3f485bb5746cd27c"),
        (2, false, 346, "85849d3616384a41239df7d11ecdd267c96296b7826259ce76d9f8a14270335d"),
        (2, true, 356, "0fa69205de5e29c4e5f37f618e0590ea1575cf5bbbed230e41d686b82041f456"),
     ]),
];

/// Message `i`, its nonce and signing seed for degree `logn` (the reference run's inputs).
fn small_inputs(logn: u32, i: usize) -> (Vec<u8>, [u8; 40], [u8; SEED_LEN]) {
    let msg = (0..17 * i).map(|k| (k * 7 + logn as usize) as u8).collect();
    let nonce = core::array::from_fn(|k| (k + 40 * i + logn as usize) as u8);
    let seed = core::array::from_fn(|k| (255 - k - i - logn as usize) as u8);
    (msg, nonce, seed)
}

fn digest(data: &[u8]) -> String {
    let mut h = [0u8; 32];
    pqsig::kernels::keccak::sponge::shake256(&[data], &mut h);
    hex::encode(h)
}

#[test]
fn small_degrees_match_reference() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(small_degrees_match_reference_once);
}

fn small_degrees_match_reference_once() {
    for &(logn, sk_hex, sigs) in SMALL {
        let sk = unhex(sk_hex);
        let parts = pqsig::kernels::internals::falcon::codec::decode_secret_key(&sk).expect("sk");
        assert_eq!(parts.logn, logn);
        let pk =
            pqsig::kernels::internals::falcon::verify::public_key_from_fg(&parts.f, &parts.g, logn)
                .expect("pk");
        for b in backends() {
            let ck = CompactKey::from_bytes(&sk).expect("sk").with_backend(b);
            let ek = ExpandedKey::from_bytes_with_backend(&sk, b).expect("sk");
            assert_eq!(ek.logn(), logn);
            for &(i, padded, len, want) in sigs.iter() {
                let (msg, nonce, seed) = small_inputs(logn, i);
                let format = if padded {
                    Format::Padded
                } else {
                    Format::Compressed
                };
                let s1 = ck.sign_round3(&msg, &nonce, &seed, format).expect("sign");
                let s2 = ek.sign_round3(&msg, &nonce, &seed, format).expect("sign");
                let what = format!("logn {logn} msg {i} padded {padded} ({b})");
                assert_eq!(s1.len(), len, "{what}: dynamic length");
                assert_eq!(digest(&s1), want, "{what}: dynamic");
                assert_eq!(s2, s1, "{what}: expanded");
                pqsig::kernels::internals::falcon::verify::verify(&pk, &msg, &s1, padded)
                    .unwrap_or_else(|e| panic!("{what}: does not verify: {e}"));
            }
        }
    }
}

#[test]
fn sizes_and_errors() {
    use pqsig::kernels::internals::falcon::sign::ldl_tree_size;
    assert_eq!(ldl_tree_size(9), 10 * 512);
    assert_eq!(ldl_tree_size(10), 11 * 1024);
    assert_eq!(ExpandedKey::size(9), 15 * 512);
    // Wrong lengths and degrees.
    let f = vec![1i8; 8];
    assert!(matches!(
        CompactKey::new(&f, &f, &f, &f, 0),
        Err(Error::InvalidKey)
    ));
    assert!(matches!(
        CompactKey::new(&f, &f, &f, &f[..4], 3),
        Err(Error::InvalidKey)
    ));
    assert!(matches!(
        CompactKey::new(&f, &f, &f, &f, 11),
        Err(Error::InvalidKey)
    ));
    assert!(matches!(
        ExpandedKey::new(&f, &f, &f, &f, 2),
        Err(Error::InvalidKey)
    ));
    // Malformed encodings.
    let sk = unhex(SMALL[3].1);
    assert!(CompactKey::from_bytes(&sk).is_ok());
    assert!(matches!(
        CompactKey::from_bytes(&sk[..sk.len() - 1]),
        Err(Error::InvalidKey)
    ));
    assert!(matches!(
        CompactKey::from_bytes(&[]),
        Err(Error::InvalidKey)
    ));
    let mut bad = sk.clone();
    bad[0] ^= 0x10;
    assert!(matches!(
        ExpandedKey::from_bytes(&bad),
        Err(Error::InvalidKey)
    ));
    // hm / s2 of the wrong length.
    let ck = CompactKey::from_bytes(&sk).expect("sk");
    let n = 1usize << ck.logn();
    let mut rng = pqsig::kernels::keccak::sponge::Shake256::new();
    rng.absorb(b"seed");
    let mut s2 = vec![0i16; n];
    assert!(matches!(
        ck.sign(&vec![0u16; n + 1], &mut rng, &mut s2),
        Err(Error::InvalidLength)
    ));
    assert!(matches!(
        ck.expand().sign(&vec![0u16; n], &mut rng, &mut s2[1..]),
        Err(Error::InvalidLength)
    ));
    assert!(ck.sign(&vec![5u16; n], &mut rng, &mut s2).is_ok());
}

/// Keys that decode but are not Falcon keys (no NTRU equation, degenerate basis) give
/// `InvalidKey`, in bounded time, in both modes; never a panic or an endless loop.
#[test]
fn invalid_keys_fail_cleanly() {
    let mut rng = common::XorShift(0xBAD_C0DE);
    for logn in [1u32, 2, 5, 9, 10] {
        let n = 1usize << logn;
        let mut cases: Vec<[Vec<i8>; 4]> = vec![[vec![0; n], vec![0; n], vec![0; n], vec![0; n]]];
        for _ in 0..3 {
            cases.push(core::array::from_fn(|_| {
                (0..n).map(|_| (rng.next() % 7) as i8 - 3).collect()
            }));
        }
        for b in backends() {
            for (ci, [f, g, cf, cg]) in cases.iter().enumerate() {
                let hm: Vec<u16> = (0..n).map(|_| (rng.next() % 12289) as u16).collect();
                let mut s2 = vec![0i16; n];
                let mut sh = pqsig::kernels::keccak::sponge::Shake256::new();
                sh.absorb(b"invalid");
                let ck = CompactKey::new(f, g, cf, cg, logn)
                    .expect("lengths")
                    .with_backend(b);
                let r = ck.sign(&hm, &mut sh, &mut s2);
                assert!(
                    matches!(r, Ok(()) | Err(Error::InvalidKey)),
                    "logn {logn} case {ci} ({b}): {r:?}"
                );
                let ek = ck.expand();
                let r2 = ek.sign(&hm, &mut sh, &mut s2);
                assert!(matches!(r2, Ok(()) | Err(Error::InvalidKey)), "{r2:?}");
                if !ek.is_valid() {
                    assert_eq!(r2, Err(Error::InvalidKey));
                    assert!(matches!(ck.try_expand(), Err(Error::InvalidKey)));
                }
                if ci == 0 {
                    // The zero basis is singular: rejected outright.
                    assert_eq!(r, Err(Error::InvalidKey));
                }
            }
        }
    }
}

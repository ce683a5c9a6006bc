//! ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6).

use super::encode;
use super::keys::{expand_a, ntt_copy, SigningKey, VerifyingKey};
use super::params::{ParamSet, Params};
use super::sample;
use crate::kernels::mldsa::{Kernels, Poly};
use alloc::vec;
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

/// Everything KeyGen_internal computes, before it is encoded or turned into key objects.
struct Parts {
    rho: [u8; 32],
    key: Zeroizing<[u8; 32]>,
    a_hat: Vec<Poly>,
    s1: Vec<Poly>,
    s1_hat: Vec<Poly>,
    s2: Vec<Poly>,
    t1: Vec<Poly>,
    t0: Vec<Poly>,
    pk: Vec<u8>,
    tr: [u8; 64],
}

impl Drop for Parts {
    fn drop(&mut self) {
        for v in [&mut self.s1, &mut self.s1_hat, &mut self.s2, &mut self.t0] {
            v.iter_mut().for_each(Zeroize::zeroize);
        }
    }
}

/// Algorithm 6: (ρ, ρ′, K) = H(ξ ‖ k ‖ l), Â = ExpandA(ρ), (s1, s2) = ExpandS(ρ′),
/// t = NTT⁻¹(Â ∘ NTT(s1)) + s2, (t1, t0) = Power2Round(t), pk = pkEncode(ρ, t1),
/// tr = H(pk).
/// With `hash_tr` false, tr is left zero for the caller to hash (the bytes path fuses it
/// with packing the secret key).
fn compute(p: &Params, kern: &Kernels, xi: &[u8; 32], hash_tr: bool) -> Parts {
    let mut expanded = Zeroizing::new([0u8; 128]);
    sample::h256(kern, &[xi, &[p.k as u8, p.l as u8]], &mut expanded[..]);
    // ρ is the public key's first field (declassification, docs/ARCHITECTURE.md).
    let rho: [u8; 32] = crate::ct::public(core::array::from_fn(|i| expanded[i]));
    let mut rho_prime = Zeroizing::new([0u8; 64]);
    rho_prime.copy_from_slice(&expanded[32..96]);
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&expanded[96..128]);

    let a_hat = expand_a(kern, p, &rho);
    let mut s1 = vec![Poly::default(); p.l];
    let mut s2 = vec![Poly::default(); p.k];
    sample::expand_s(kern, p, &rho_prime, &mut s1, &mut s2);
    let s1_hat = ntt_copy(kern, &s1);

    let PublicParts { t1, t0, pk, tr } = public_parts(kern, p, &rho, &a_hat, &s1_hat, &s2, hash_tr);
    Parts {
        rho,
        key,
        a_hat,
        s1,
        s1_hat,
        s2,
        t1,
        t0,
        pk,
        tr,
    }
}

/// What Algorithm 6 derives from (ρ, ŝ1, s2): t1 and t0 (the caller wipes t0), pkEncode
/// and tr = H(pk). Shared by keygen and by the key-import consistency check.
pub(crate) struct PublicParts {
    pub t1: Vec<Poly>,
    pub t0: Vec<Poly>,
    pub pk: Vec<u8>,
    pub tr: [u8; 64],
}

/// t = NTT⁻¹(Â ∘ ŝ1) + s2, (t1, t0) = Power2Round(t), pk = pkEncode(ρ, t1), tr = H(pk).
pub(crate) fn public_parts(
    kern: &Kernels,
    p: &Params,
    rho: &[u8; 32],
    a_hat: &[Poly],
    s1_hat: &[Poly],
    s2: &[Poly],
    hash_tr: bool,
) -> PublicParts {
    let mut t1 = vec![Poly::default(); p.k];
    let mut t0 = vec![Poly::default(); p.k];
    (kern.matvec_montgomery)(&mut t1, a_hat, s1_hat);
    (kern.reduce32)(&mut t1);
    (kern.invntt_tomont)(&mut t1);
    (kern.add)(&mut t1, s2);
    (kern.caddq)(&mut t1);
    (kern.power2round)(&mut t1, &mut t0);
    // t1 is the public key (declassification, docs/ARCHITECTURE.md); t0 stays secret.
    crate::ct::public_mut(&mut t1[..]);
    let mut pk = vec![0u8; p.pk_len()];
    pk[..32].copy_from_slice(rho);
    for (i, t) in t1.iter().enumerate() {
        encode::pack_t1(t, &mut pk[32 + 320 * i..32 + 320 * (i + 1)]);
    }
    let mut tr = [0u8; 64];
    if hash_tr {
        sample::h256(kern, &[&pk], &mut tr);
    }
    PublicParts { t1, t0, pk, tr }
}

/// KeyGen_internal(ξ) returning key objects (with their NTT-domain caches).
pub(crate) fn keygen_internal(
    ps: ParamSet,
    kern: &'static Kernels,
    xi: &[u8; 32],
) -> (SigningKey, VerifyingKey) {
    let p = ps.params();
    let mut parts = compute(p, kern, xi, true);
    let vk = VerifyingKey::assemble(
        ps,
        kern,
        core::mem::take(&mut parts.pk),
        parts.tr,
        &parts.rho,
        core::mem::take(&mut parts.t1),
        Some(parts.a_hat.clone()),
    );
    let s2_hat = ntt_copy(kern, &parts.s2);
    let t0_hat = ntt_copy(kern, &parts.t0);
    let sk = SigningKey {
        ps,
        kern,
        seed: Some(Zeroizing::new(*xi)),
        rho: parts.rho,
        key: parts.key.clone(),
        tr: parts.tr,
        s1: core::mem::take(&mut parts.s1),
        s2: core::mem::take(&mut parts.s2),
        t0: core::mem::take(&mut parts.t0),
        s1_hat: core::mem::take(&mut parts.s1_hat),
        s2_hat,
        t0_hat,
        a_hat: core::mem::take(&mut parts.a_hat),
    };
    (sk, vk)
}

/// KeyGen_internal(ξ) returning only the encodings (pk, expanded sk): no key objects, no
/// NTT caches. What a caller that stores keys as bytes needs.
pub(crate) fn keygen_internal_bytes(
    ps: ParamSet,
    kern: &Kernels,
    xi: &[u8; 32],
) -> (Vec<u8>, Zeroizing<Vec<u8>>) {
    let p = ps.params();
    let mut parts = compute(p, kern, xi, false);
    let mut sk = Zeroizing::new(vec![0u8; p.sk_len()]);
    let (head, packed) = sk.split_at_mut(encode::SK_HEAD);
    let packer = encode::SkPacker::new(p, &parts.s1, &parts.s2, &parts.t0, packed);
    let mut tr = [0u8; 64];
    match kern.backend {
        // H(pk) with the packing in its rounds' idle cycles (`avx512::hash_pack`).
        #[cfg(target_arch = "x86_64")]
        crate::kernels::select::Backend::Avx512 => {
            crate::kernels::mldsa::avx512::hash_pack::tr_packing(&parts.pk, &mut tr, packer)
        }
        _ => {
            sample::h256(kern, &[&parts.pk], &mut tr);
            packer.finish();
        }
    }
    encode::put_sk_head(head, &parts.rho, &parts.key, &tr);
    (core::mem::take(&mut parts.pk), sk)
}

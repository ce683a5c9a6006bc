//! AES-128 (FIPS 197) encryption and the CTR keystream SNOVA's `_AES` sets expand
//! their public seed with: one key schedule, several engines.
//!
//! * [`Engine::Bitsliced`] (`portable`): every target; constant time without
//!   hardware help (a boolean-circuit S-box on bit planes, four blocks per pass).
//! * [`Engine::AesNi`] (`aesni`, x86-64 `aes`): `aesenc` on xmm registers, eight blocks
//!   in flight to cover the instruction's latency; key expansion with
//!   `aeskeygenassist`.
//! * [`Engine::Vaes`] (`aesni`, x86-64 `vaes` + `avx512f` + `avx512bw`): `vaesenc` on zmm registers,
//!   four blocks per register and four registers (16 blocks) in flight.
//! * [`Engine::Armv8`] (`armv8`, aarch64 `aes`): the ARMv8 Cryptography Extension
//!   (`aese` + `aesmc`), eight blocks in flight.
//!
//! Hardware AES instructions run in constant time, so every engine is constant time.
//! Which engine a [`Backend`] uses ([`Engine::for_backend`]): portable → bitsliced;
//! avx2 → AES-NI; avx512 → VAES (AES-NI when the CPU has no VAES); neon → ARMv8 CE; an engine the CPU
//! lacks falls back to the next one down, ending at bitsliced. All engines produce the
//! same bytes (tests/snova_xof.rs checks them against each other, FIPS 197 and the
//! `aes` crate).
//!
//! The key schedule ([`Aes128`]) is zeroized on drop: SNOVA's seed is public, but
//! these kernels are general. (Copies the compiler leaves in registers or spill slots
//! are out of reach, as everywhere in this crate.)

pub(crate) mod portable;

#[cfg(target_arch = "x86_64")]
pub(crate) mod aesni;

#[cfg(target_arch = "aarch64")]
pub(crate) mod armv8;

use crate::kernels::select::Backend;
use portable::BitslicedKeys;
use zeroize::Zeroize;

/// An AES implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Bitsliced, constant time, every target.
    Bitsliced,
    /// x86-64 AES-NI on xmm registers.
    AesNi,
    /// x86-64 VAES on zmm registers (AVX-512F, AVX-512BW).
    Vaes,
    /// aarch64 ARMv8 Cryptography Extension.
    Armv8,
}

impl Engine {
    /// Every engine this build knows about, available or not.
    pub const ALL: &'static [Engine] = &[
        Engine::Bitsliced,
        Engine::AesNi,
        Engine::Vaes,
        Engine::Armv8,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Bitsliced => "bitsliced",
            Engine::AesNi => "aes-ni",
            Engine::Vaes => "vaes",
            Engine::Armv8 => "armv8-ce",
        }
    }

    /// Whether this CPU and build can run the engine.
    pub fn is_available(self) -> bool {
        match self {
            Engine::Bitsliced => true,
            Engine::AesNi => aesni_detected(),
            Engine::Vaes => vaes_detected(),
            Engine::Armv8 => armv8_aes_detected(),
        }
    }

    /// The engines available here, bitsliced first.
    pub fn available() -> impl Iterator<Item = Engine> {
        Self::ALL.iter().copied().filter(|e| e.is_available())
    }

    /// The engine backend `b` uses on this CPU (see the module documentation).
    pub fn for_backend(b: Backend) -> Engine {
        crate::kernels::trace::record("aes::Engine::for_backend", b);
        let wanted: &[Engine] = match b {
            Backend::Portable => &[],
            Backend::Avx2 => &[Engine::AesNi],
            Backend::Avx512 => &[Engine::Vaes, Engine::AesNi],
            Backend::Neon => &[Engine::Armv8],
        };
        wanted
            .iter()
            .copied()
            .find(|e| e.is_available())
            .unwrap_or(Engine::Bitsliced)
    }
}

impl core::fmt::Display for Engine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(target_arch = "x86_64")]
fn aesni_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("aes") && std::is_x86_feature_detected!("sse2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(target_feature = "aes", target_feature = "sse2"))
    }
}
#[cfg(not(target_arch = "x86_64"))]
fn aesni_detected() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
fn vaes_detected() -> bool {
    #[cfg(feature = "std")]
    {
        aesni_detected()
            && std::is_x86_feature_detected!("vaes")
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(feature = "std"))]
    {
        aesni_detected()
            && cfg!(all(
                target_feature = "vaes",
                target_feature = "avx512f",
                target_feature = "avx512bw"
            ))
    }
}
#[cfg(not(target_arch = "x86_64"))]
fn vaes_detected() -> bool {
    false
}

#[cfg(target_arch = "aarch64")]
fn armv8_aes_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::arch::is_aarch64_feature_detected!("aes")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "aes")
    }
}
#[cfg(not(target_arch = "aarch64"))]
fn armv8_aes_detected() -> bool {
    false
}

/// An AES-128 key schedule bound to one engine. Zeroized on drop.
pub struct Aes128 {
    engine: Engine,
    /// FIPS 197 round keys: round key i = words w\[4i..4i+4\], bytes in FIPS order.
    rk: [[u8; 16]; 11],
    /// The bitsliced form of `rk` (bitsliced engine only).
    bs: Option<BitslicedKeys>,
}

impl Drop for Aes128 {
    fn drop(&mut self) {
        self.rk.zeroize();
        // `bs` zeroizes itself.
    }
}

impl Aes128 {
    /// The key schedule of `key` for backend `b`'s engine ([`Engine::for_backend`]).
    pub fn new(b: Backend, key: &[u8; 16]) -> Self {
        Self::with_engine_or_fallback(Engine::for_backend(b), key)
    }

    /// The key schedule for `engine`; `None` if this CPU cannot run it.
    pub fn with_engine(engine: Engine, key: &[u8; 16]) -> Option<Self> {
        engine
            .is_available()
            .then(|| Self::with_engine_or_fallback(engine, key))
    }

    fn with_engine_or_fallback(engine: Engine, key: &[u8; 16]) -> Self {
        let engine = if engine.is_available() {
            engine
        } else {
            Engine::Bitsliced
        };
        let rk = match engine {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: AES-NI (and SSE2) detected: `engine` is available, and VAES
            // availability implies AES-NI's.
            Engine::AesNi | Engine::Vaes => unsafe { aesni::expand_key(key) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the ARMv8 AES instructions were detected.
            Engine::Armv8 => unsafe { armv8::expand_key(key) },
            _ => portable::expand_key(key),
        };
        let bs = (engine == Engine::Bitsliced).then(|| BitslicedKeys::new(&rk));
        Aes128 { engine, rk, bs }
    }

    /// The engine this schedule runs on.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The FIPS 197 round keys (for tests: every engine's expansion must agree).
    pub fn round_keys(&self) -> &[[u8; 16]; 11] {
        &self.rk
    }

    /// Encrypts each 16-byte block of `blocks` in place (ECB, for tests and
    /// single-block uses).
    pub fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        match (self.engine, &self.bs) {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `engine` was available when the schedule was made (AES-NI
            // detected; VAES implies it).
            (Engine::AesNi | Engine::Vaes, _) => unsafe { aesni::encrypt_blocks(&self.rk, blocks) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the ARMv8 AES instructions were detected.
            (Engine::Armv8, _) => unsafe { armv8::encrypt_blocks(&self.rk, blocks) },
            (_, Some(bs)) => portable::encrypt_blocks(bs, blocks),
            (_, None) => portable::encrypt_blocks(&BitslicedKeys::new(&self.rk), blocks),
        }
    }

    /// CTR keystream: block `i` of `out` is AES(0¹² ‖ BE32(ctr0 + i mod 2³²)); the last
    /// block is truncated to fit.
    pub fn ctr(&self, ctr0: u32, out: &mut [u8]) {
        match (self.engine, &self.bs) {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: VAES, AVX-512F and AES-NI detected (`engine` available).
            (Engine::Vaes, _) => unsafe { aesni::ctr_vaes(&self.rk, ctr0, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: AES-NI detected.
            (Engine::AesNi, _) => unsafe { aesni::ctr_aesni(&self.rk, ctr0, out) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the ARMv8 AES instructions were detected.
            (Engine::Armv8, _) => unsafe { armv8::ctr(&self.rk, ctr0, out) },
            (_, Some(bs)) => portable::ctr(bs, ctr0, out),
            (_, None) => portable::ctr(&BitslicedKeys::new(&self.rk), ctr0, out),
        }
    }
}

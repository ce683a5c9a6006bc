//! The 18 Round-3 parameter sets and every size derived from (v, o, l, r, m1).
//!
//! q = 16 for all of them. `alpha = l·r + 2r` (Round 3; Round 2 used l² + l). Sizes are
//! computed, never tabulated, so the table in the module docs and these functions cannot
//! drift apart (the KAT tests check the lengths against the files).

/// A Round-3 SNOVA parameter set: the nine recommended (v, o, l, r, m1) choices, each with
/// SHAKE128 (default) or AES-128-CTR (`_AES`) public-seed expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamSet {
    SnovaIK,
    SnovaIB,
    SnovaIS,
    SnovaIIIK,
    SnovaIIIB,
    SnovaIIIS,
    SnovaVK,
    SnovaVB,
    SnovaVS,
    SnovaIKAes,
    SnovaIBAes,
    SnovaISAes,
    SnovaIIIKAes,
    SnovaIIIBAes,
    SnovaIIISAes,
    SnovaVKAes,
    SnovaVBAes,
    SnovaVSAes,
}

/// Bytes of the public seed (expands P11, P12, P21).
pub const SEED_PUB_LEN: usize = 16;
/// Bytes of the private seed (expands T12 and, with the message, the vinegar).
pub const SEED_PRIV_LEN: usize = 32;
/// Bytes of SHAKE256(pk) kept in the secret key and hashed into the target.
pub const PK_HASH_LEN: usize = 48;
/// Bytes of the message digest SHAKE256(msg, 64).
pub const DIGEST_LEN: usize = 64;
/// The key-generation seed: `s_pub ‖ s_priv` (what `crypto_sign_keypair` draws).
pub const SEED_LEN: usize = SEED_PUB_LEN + SEED_PRIV_LEN;
/// The per-signature salt (public, the last 16 bytes of the signature).
pub const SALT_LEN: usize = 16;
/// Secret key `s_pub ‖ s_priv ‖ SHAKE256(pk)[..48]`.
pub const SK_LEN: usize = SEED_LEN + PK_HASH_LEN;

/// The shape of a parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub v: usize,
    pub o: usize,
    pub l: usize,
    pub r: usize,
    pub m1: usize,
}

impl Shape {
    pub const fn n(&self) -> usize {
        self.v + self.o
    }
    pub const fn lr(&self) -> usize {
        self.l * self.r
    }
    pub const fn alpha(&self) -> usize {
        self.l * self.r + 2 * self.r
    }
    /// Rows of the flat vinegar matrices (v·l).
    pub const fn vl(&self) -> usize {
        self.v * self.l
    }
    /// Columns of the flat oil matrices (o·l).
    pub const fn ol(&self) -> usize {
        self.o * self.l
    }
    /// n·l.
    pub const fn nl(&self) -> usize {
        self.n() * self.l
    }
    /// Unknowns (= equations) of the signing system: o·l·r.
    pub const fn olr(&self) -> usize {
        self.o * self.l * self.r
    }
    /// (mi, alpha) pairs: o·alpha.
    pub const fn items(&self) -> usize {
        self.o * self.alpha()
    }
    /// GF(16) elements of the public P22 (m1·o²·l²).
    pub const fn pk_gf(&self) -> usize {
        self.m1 * self.o * self.o * self.l * self.l
    }
    /// GF(16) elements of a signature (without the salt): n·l·r.
    pub const fn sig_gf(&self) -> usize {
        self.n() * self.lr()
    }
    /// Bytes of the target hash: ceil(o·l·r / 2).
    pub const fn hash_bytes(&self) -> usize {
        self.olr().div_ceil(2)
    }
    /// Bytes of the vinegar draw: ceil(v·l·r / 2).
    pub const fn vinegar_bytes(&self) -> usize {
        (self.v * self.lr()).div_ceil(2)
    }
    /// Elements expanded from the public seed: m1·(v² + 2vo)·l² (P11, P12, P21).
    pub const fn pub_gf(&self) -> usize {
        self.m1 * (self.v * self.v + 2 * self.v * self.o) * self.l * self.l
    }
    pub const fn pub_bytes(&self) -> usize {
        self.pub_gf().div_ceil(2)
    }
    /// Elements of the T12 coefficient draw: o·v·l.
    pub const fn t12_gf(&self) -> usize {
        self.o * self.v * self.l
    }
    pub const fn pk_len(&self) -> usize {
        SEED_PUB_LEN + self.pk_gf().div_ceil(2)
    }
    pub const fn sig_len(&self) -> usize {
        self.sig_gf().div_ceil(2) + SALT_LEN
    }
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    /// Index of the nine base shapes (I_K .. V_S), shared by the SHAKE and AES sets.
    pub const fn base_index(&self) -> usize {
        let mut i = 0;
        while i < 9 {
            let s = BASE[i];
            if s.v == self.v && s.o == self.o && s.l == self.l && s.r == self.r {
                return i;
            }
            i += 1;
        }
        0
    }
}

/// (v, o, l, r, m1) of I_K, I_B, I_S, III_K, III_B, III_S, V_K, V_B, V_S.
pub(crate) const BASE: [Shape; 9] = [
    Shape {
        v: 29,
        o: 3,
        l: 4,
        r: 8,
        m1: 5,
    },
    Shape {
        v: 27,
        o: 4,
        l: 4,
        r: 6,
        m1: 5,
    },
    Shape {
        v: 27,
        o: 5,
        l: 4,
        r: 4,
        m1: 5,
    },
    Shape {
        v: 38,
        o: 4,
        l: 4,
        r: 8,
        m1: 7,
    },
    Shape {
        v: 38,
        o: 5,
        l: 4,
        r: 6,
        m1: 7,
    },
    Shape {
        v: 38,
        o: 6,
        l: 4,
        r: 5,
        m1: 7,
    },
    Shape {
        v: 40,
        o: 4,
        l: 5,
        r: 8,
        m1: 6,
    },
    Shape {
        v: 40,
        o: 5,
        l: 5,
        r: 6,
        m1: 6,
    },
    Shape {
        v: 40,
        o: 6,
        l: 5,
        r: 5,
        m1: 6,
    },
];

const NAMES: [&str; 18] = [
    "SNOVA_I_K",
    "SNOVA_I_B",
    "SNOVA_I_S",
    "SNOVA_III_K",
    "SNOVA_III_B",
    "SNOVA_III_S",
    "SNOVA_V_K",
    "SNOVA_V_B",
    "SNOVA_V_S",
    "SNOVA_I_K_AES",
    "SNOVA_I_B_AES",
    "SNOVA_I_S_AES",
    "SNOVA_III_K_AES",
    "SNOVA_III_B_AES",
    "SNOVA_III_S_AES",
    "SNOVA_V_K_AES",
    "SNOVA_V_B_AES",
    "SNOVA_V_S_AES",
];

impl ParamSet {
    /// The SHAKE sets (I_K .. V_S), then the AES ones in the same order.
    pub const ALL: [ParamSet; 18] = [
        ParamSet::SnovaIK,
        ParamSet::SnovaIB,
        ParamSet::SnovaIS,
        ParamSet::SnovaIIIK,
        ParamSet::SnovaIIIB,
        ParamSet::SnovaIIIS,
        ParamSet::SnovaVK,
        ParamSet::SnovaVB,
        ParamSet::SnovaVS,
        ParamSet::SnovaIKAes,
        ParamSet::SnovaIBAes,
        ParamSet::SnovaISAes,
        ParamSet::SnovaIIIKAes,
        ParamSet::SnovaIIIBAes,
        ParamSet::SnovaIIISAes,
        ParamSet::SnovaVKAes,
        ParamSet::SnovaVBAes,
        ParamSet::SnovaVSAes,
    ];

    const fn index(self) -> usize {
        self as usize
    }

    pub(crate) const fn shape(self) -> Shape {
        BASE[self.index() % 9]
    }

    /// `SNOVA_I_S`, `SNOVA_I_S_AES`, ...
    pub const fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    /// Parses a name (case-insensitive; `-` accepted for `_`).
    pub fn from_name(s: &str) -> Option<ParamSet> {
        let s = s.trim();
        Self::ALL.iter().copied().find(|p| {
            let n = p.name();
            n.len() == s.len()
                && n.bytes().zip(s.bytes()).all(|(a, b)| {
                    let b = if b == b'-' { b'_' } else { b };
                    a.eq_ignore_ascii_case(&b)
                })
        })
    }

    pub const fn public_key_len(self) -> usize {
        self.shape().pk_len()
    }
    /// Always 96: `s_pub(16) ‖ s_priv(32) ‖ SHAKE256(pk)[..48]`.
    pub const fn secret_key_len(self) -> usize {
        SK_LEN
    }
    /// `ceil(n·l·r / 2) + 16` (the salt is the last 16 bytes).
    pub const fn signature_len(self) -> usize {
        self.shape().sig_len()
    }
    pub const fn v(self) -> usize {
        self.shape().v
    }
    pub const fn o(self) -> usize {
        self.shape().o
    }
    pub const fn l(self) -> usize {
        self.shape().l
    }
    pub const fn r(self) -> usize {
        self.shape().r
    }
    pub const fn m1(self) -> usize {
        self.shape().m1
    }
    pub const fn n(self) -> usize {
        self.shape().n()
    }
    /// Whether the public seed is expanded with AES-128-CTR (the `_AES` sets).
    pub const fn uses_aes(self) -> bool {
        self.index() >= 9
    }
}

impl core::fmt::Display for ParamSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

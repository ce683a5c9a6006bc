//! ML-DSA parameter sets (FIPS 204 Table 1) and the byte lengths they imply (Table 2).

use crate::kernels::mldsa::Q;

/// The three FIPS 204 parameter sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamSet {
    MlDsa44,
    MlDsa65,
    MlDsa87,
}

/// Largest k and l over the parameter sets (for fixed-size stack arrays).
pub const K_MAX: usize = 8;
pub const L_MAX: usize = 7;

/// The numbers of one parameter set.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub name: &'static str,
    /// Rows (k) and columns (l) of A.
    pub k: usize,
    pub l: usize,
    /// Secret coefficient bound η.
    pub eta: i32,
    /// Number of ±1 in c.
    pub tau: usize,
    /// β = τ·η.
    pub beta: i32,
    /// Mask range γ1 (2^17 or 2^19).
    pub gamma1: i32,
    /// Low-order rounding range γ2.
    pub gamma2: i32,
    /// Maximum number of ones in the hint.
    pub omega: usize,
    /// Length of c̃ in bytes (λ/4).
    pub ctilde_len: usize,
}

impl Params {
    /// Bytes of one packed η-polynomial: 3 bits (η = 2) or 4 bits (η = 4) per coefficient.
    pub const fn eta_bytes(&self) -> usize {
        if self.eta == 2 {
            96
        } else {
            128
        }
    }
    /// Bits per z coefficient: 1 + bitlen(γ1 − 1).
    pub const fn z_bits(&self) -> usize {
        if self.gamma1 == 1 << 17 {
            18
        } else {
            20
        }
    }
    pub const fn z_bytes(&self) -> usize {
        32 * self.z_bits()
    }
    /// Bits per w1 coefficient: bitlen((q − 1)/(2γ2) − 1).
    pub const fn w1_bits(&self) -> usize {
        if self.gamma2 == (Q - 1) / 88 {
            6
        } else {
            4
        }
    }
    pub const fn w1_bytes(&self) -> usize {
        32 * self.w1_bits()
    }
    pub const fn pk_len(&self) -> usize {
        32 + 320 * self.k
    }
    pub const fn sk_len(&self) -> usize {
        32 + 32 + 64 + (self.l + self.k) * self.eta_bytes() + 416 * self.k
    }
    pub const fn sig_len(&self) -> usize {
        self.ctilde_len + self.l * self.z_bytes() + self.omega + self.k
    }
}

pub const ML_DSA_44: Params = Params {
    name: "ML-DSA-44",
    k: 4,
    l: 4,
    eta: 2,
    tau: 39,
    beta: 78,
    gamma1: 1 << 17,
    gamma2: (Q - 1) / 88,
    omega: 80,
    ctilde_len: 32,
};

pub const ML_DSA_65: Params = Params {
    name: "ML-DSA-65",
    k: 6,
    l: 5,
    eta: 4,
    tau: 49,
    beta: 196,
    gamma1: 1 << 19,
    gamma2: (Q - 1) / 32,
    omega: 55,
    ctilde_len: 48,
};

pub const ML_DSA_87: Params = Params {
    name: "ML-DSA-87",
    k: 8,
    l: 7,
    eta: 2,
    tau: 60,
    beta: 120,
    gamma1: 1 << 19,
    gamma2: (Q - 1) / 32,
    omega: 75,
    ctilde_len: 64,
};

impl ParamSet {
    pub const ALL: [ParamSet; 3] = [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87];

    pub const fn params(self) -> &'static Params {
        match self {
            ParamSet::MlDsa44 => &ML_DSA_44,
            ParamSet::MlDsa65 => &ML_DSA_65,
            ParamSet::MlDsa87 => &ML_DSA_87,
        }
    }
    pub const fn name(self) -> &'static str {
        self.params().name
    }
    pub const fn public_key_len(self) -> usize {
        self.params().pk_len()
    }
    pub const fn secret_key_len(self) -> usize {
        self.params().sk_len()
    }
    pub const fn signature_len(self) -> usize {
        self.params().sig_len()
    }
    /// Parses `ML-DSA-44` / `ML-DSA-65` / `ML-DSA-87` (exact).
    pub fn from_name(s: &str) -> Option<ParamSet> {
        Self::ALL.iter().copied().find(|p| p.name() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn lengths_match_fips204_table2() {
        assert_eq!(
            [ML_DSA_44.pk_len(), ML_DSA_44.sk_len(), ML_DSA_44.sig_len()],
            [1312, 2560, 2420]
        );
        assert_eq!(
            [ML_DSA_65.pk_len(), ML_DSA_65.sk_len(), ML_DSA_65.sig_len()],
            [1952, 4032, 3309]
        );
        assert_eq!(
            [ML_DSA_87.pk_len(), ML_DSA_87.sk_len(), ML_DSA_87.sig_len()],
            [2592, 4896, 4627]
        );
        for p in ParamSet::ALL {
            let q = p.params();
            assert_eq!(q.beta, q.tau as i32 * q.eta);
        }
    }
}

//! The NTT variants and how each composes a transform of 2^logn points from units.

/// An NTT algorithm. Every variant computes the same transform (same order, same bounds
/// or canonical form as the reference kernels), so any of them can serve the seam.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NttVariant {
    /// Cooley–Tukey forward, Gentleman–Sande inverse, one layer per pass (the reference).
    Radix2,
    /// Two layers merged per pass over the data (four coefficients in registers); same
    /// operations as radix-2. An odd layer count starts with one radix-2 layer.
    Radix4,
    /// Winograd radix-8 units (three layers per pass: twist + 8-point DFT with 4 modular
    /// multiplications). Leftover layers (logn mod 3) run first as one radix-2 or radix-4
    /// stage: 256 = 4·8·8, 512 = 8·8·8, 1024 = 2·8·8·8.
    Winograd8,
    /// Winograd radix-16 units (four layers per pass: twist + 16-point DFT with 14 modular
    /// multiplications). Leftover layers (logn mod 4) run first as one radix-2, radix-4
    /// or Winograd radix-8 stage: 256 = 16·16, 512 = 2·16·16, 1024 = 4·16·16.
    Winograd16,
}

impl NttVariant {
    /// Every variant, in a fixed order.
    pub const ALL: &'static [NttVariant] = &[
        NttVariant::Radix2,
        NttVariant::Radix4,
        NttVariant::Winograd8,
        NttVariant::Winograd16,
    ];

    /// Lower-case name as accepted by `PQSIG_NTT`.
    pub fn name(self) -> &'static str {
        match self {
            NttVariant::Radix2 => "radix2",
            NttVariant::Radix4 => "radix4",
            NttVariant::Winograd8 => "winograd8",
            NttVariant::Winograd16 => "winograd16",
        }
    }

    /// Parses a name as accepted by `PQSIG_NTT` (case-insensitive, surrounding blanks
    /// ignored).
    pub fn from_name(s: &str) -> Option<NttVariant> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
    }

    /// Layers per full unit: 1, 2, 3 or 4.
    pub(crate) const fn unit_layers(self) -> u32 {
        match self {
            NttVariant::Radix2 => 1,
            NttVariant::Radix4 => 2,
            NttVariant::Winograd8 => 3,
            NttVariant::Winograd16 => 4,
        }
    }

    /// The units of a forward transform of 2^logn points, top (first) unit first, as
    /// layer counts: the leftover `logn mod k` layers as one unit, then full units.
    /// Returns the array and how many entries are used.
    pub const fn plan(self, logn: u32) -> ([u32; 12], usize) {
        let k = self.unit_layers();
        let mut p = [0u32; 12];
        let mut len = 0;
        let lead = logn % k;
        if lead > 0 {
            p[0] = lead;
            len = 1;
        }
        let mut done = lead;
        while done < logn {
            p[len] = k;
            len += 1;
            done += k;
        }
        (p, len)
    }

    #[cfg(feature = "ntt-study")]
    pub(crate) fn to_u8(self) -> u8 {
        match self {
            NttVariant::Radix2 => 1,
            NttVariant::Radix4 => 2,
            NttVariant::Winograd8 => 3,
            NttVariant::Winograd16 => 4,
        }
    }

    #[cfg(feature = "ntt-study")]
    pub(crate) fn from_u8(v: u8) -> Option<NttVariant> {
        match v {
            1 => Some(NttVariant::Radix2),
            2 => Some(NttVariant::Radix4),
            3 => Some(NttVariant::Winograd8),
            4 => Some(NttVariant::Winograd16),
            _ => None,
        }
    }
}

impl core::fmt::Display for NttVariant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_plans() {
        for &v in NttVariant::ALL {
            assert_eq!(NttVariant::from_name(v.name()), Some(v));
            assert_eq!(NttVariant::from_name(&v.name().to_uppercase()), Some(v));
            #[cfg(feature = "ntt-study")]
            assert_eq!(NttVariant::from_u8(v.to_u8()), Some(v));
            for logn in 1..=10 {
                let (p, len) = v.plan(logn);
                assert_eq!(p[..len].iter().sum::<u32>(), logn);
                assert!(p[..len].iter().all(|&l| (1..=4).contains(&l)));
            }
        }
        assert_eq!(NttVariant::from_name("radix3"), None);
        assert_eq!(
            NttVariant::Winograd8.plan(8),
            ([2, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0], 3)
        );
        assert_eq!(NttVariant::Winograd16.plan(10).0[..3], [2, 4, 4]);
    }
}

//! Input splitting shared by the fuzz targets: one fuzz input is read as a sequence of
//! fields, each a byte, a fixed-size slice or a length-prefixed slice. A field that runs
//! past the end of the input comes back short (never a panic), so every input is usable.

use pqsig::Algorithm;

/// Reads fields from the front of a fuzz input.
pub struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Fields(data)
    }

    /// One byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or(0)
    }

    /// Up to `n` bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.0.split_at(n.min(self.0.len()));
        self.0 = tail;
        head
    }

    /// A slice whose length is a 16-bit little-endian prefix.
    pub fn take_len16(&mut self) -> &'a [u8] {
        let l = self.take(2);
        let n = match l {
            [a, b] => u16::from_le_bytes([*a, *b]) as usize,
            [a] => *a as usize,
            _ => 0,
        };
        self.take(n)
    }

    /// A slice whose length is a 32-bit little-endian prefix.
    pub fn take_len32(&mut self) -> &'a [u8] {
        let mut b = [0u8; 4];
        let l = self.take(4);
        b[..l.len()].copy_from_slice(l);
        self.take(u32::from_le_bytes(b) as usize)
    }

    /// Everything left.
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// The algorithm a selector byte names: every one of the 27 is reachable.
pub fn algorithm(selector: u8) -> Algorithm {
    Algorithm::ALL[selector as usize % Algorithm::ALL.len()]
}

/// The selector byte of `alg` (the inverse of [`algorithm`]; for the seed generator).
pub fn selector(alg: Algorithm) -> u8 {
    Algorithm::ALL.iter().position(|&a| a == alg).expect("listed") as u8
}

//! Peak stack use by painting: before an operation every free word of the stack below the
//! current stack pointer is filled with a pattern; afterwards the lowest word that no
//! longer holds it marks the deepest point the operation reached.

use core::arch::asm;
use core::ptr::{read_volatile, write_volatile};

const PAINT: u32 = 0xC0DE_5AA5;
/// Left unpainted just below the stack pointer: the painting and scanning code's own
/// frames live there. Operations use far more, so this never hides their peak.
const GUARD: usize = 1024;

extern "C" {
    /// End of .bss (cortex-m-rt's link.x): the stack may grow down to here.
    static mut __sheap: u32;
}

fn sp() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer into a register; no memory access.
    unsafe { asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
    sp
}

fn floor() -> usize {
    // Only the address of the linker symbol is taken, never the value.
    (core::ptr::addr_of!(__sheap) as usize + 3) & !3
}

/// The painted region, to be handed to `peak`.
pub struct Painted {
    top: usize,
    low: usize,
}

/// Paints [end of .bss, sp - GUARD).
#[inline(never)]
pub fn paint() -> Painted {
    let top = (sp() - GUARD) & !3;
    let low = floor();
    let mut a = low;
    while a < top {
        // SAFETY: [low, top) lies between the end of .bss and below the live stack frames
        // (GUARD bytes under the current sp): memory nothing else owns right now.
        unsafe { write_volatile(a as *mut u32, PAINT) };
        a += 4;
    }
    Painted {
        top: top + GUARD,
        low,
    }
}

/// Bytes of stack used below the painting point's stack pointer since `paint`.
#[inline(never)]
pub fn peak(p: &Painted) -> u32 {
    let mut a = p.low;
    // SAFETY: the same region `paint` wrote; reading it back is harmless.
    while a < p.top - GUARD && unsafe { read_volatile(a as *const u32) } == PAINT {
        a += 4;
    }
    (p.top - a) as u32
}

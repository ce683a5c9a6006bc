//! Instruction counting through a timer: under `qemu-system-arm -icount shift=0` virtual
//! time advances exactly 1 ns per guest instruction, and the CMSDK APB timer 0 of the
//! mps2-an386 board counts down at PCLK = 25 MHz of that virtual time: one tick every
//! 40 instructions. The calibration loop in `calibrate` checks that figure at run time.

use core::arch::asm;
use core::ptr::{read_volatile, write_volatile};

/// CMSDK APB timer 0 (QEMU mps2-an386 `info mtree`: cmsdk-apb-timer at 0x4000_0000).
const TIMER0: usize = 0x4000_0000;
const CTRL: usize = TIMER0;
const VALUE: usize = TIMER0 + 0x4;
const RELOAD: usize = TIMER0 + 0x8;

/// Instructions per timer tick under -icount shift=0 (1 ns each) at PCLK 25 MHz.
pub const INSNS_PER_TICK: u64 = 40;

/// Starts timer 0 free-running from 0xFFFF_FFFF (a wrap takes 2^32 ticks, 171 s of
/// instructions: longer than any measured operation).
pub fn start() {
    // SAFETY: TIMER0 is the board's CMSDK timer, present on mps2-an386; these are its
    // word-sized registers (RELOAD, VALUE, CTRL bit 0 = enable) and nothing else uses it.
    unsafe {
        write_volatile(CTRL as *mut u32, 0);
        write_volatile(RELOAD as *mut u32, u32::MAX);
        write_volatile(VALUE as *mut u32, u32::MAX);
        write_volatile(CTRL as *mut u32, 1);
    }
}

/// The current down-counter value.
#[inline(always)]
pub fn now() -> u32 {
    // SAFETY: a word read of the running timer's VALUE register (see `start`).
    unsafe { read_volatile(VALUE as *const u32) }
}

/// Instructions between two `now()` readings (down-counter, wrapping).
pub fn instructions(before: u32, after: u32) -> u64 {
    u64::from(before.wrapping_sub(after)) * INSNS_PER_TICK
}

/// Runs a loop of exactly `2 * iterations` instructions (`subs` + `bne` per turn) between
/// two timer readings; returns (expected, measured) instruction counts.
pub fn calibrate(iterations: u32) -> (u64, u64) {
    let before = now();
    let mut n = iterations;
    // SAFETY: a register-only countdown loop; it touches no memory and no stack.
    unsafe {
        asm!(
            "2:",
            "subs {n}, {n}, #1",
            "bne 2b",
            n = inout(reg) n,
            options(nomem, nostack),
        );
    }
    let after = now();
    let _ = n;
    (2 * u64::from(iterations), instructions(before, after))
}

//! Declassification hooks for the constant-time check (examples/ct_check.rs under
//! valgrind memcheck): where the library branches on a value derived from secrets that is
//! public by design (a validity flag that only fails on malformed input, a rejection
//! decision, a public output), it passes the value through [`public`] first.
//!
//! Without feature `ct-check` [`public`] is the identity and compiles away. With it (the
//! checking build only), on x86-64, it tells memcheck that the value is defined
//! (VALGRIND_MAKE_MEM_DEFINED), so the harness, which marks secrets undefined, flags
//! every secret-dependent branch or address except these. Each call site is listed with
//! its justification in docs/ARCHITECTURE.md ("Declassifications").
//!
//! Also the optimisation barriers ([`barrier`], [`barrier32`], [`barrier_u8`]) that keep
//! masked, branch-free code branch-free after LLVM's select and cmov passes.

/// Returns `x`, marked public for memcheck in a `ct-check` build.
#[inline(always)]
pub(crate) fn public<T: Copy>(x: T) -> T {
    #[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
    {
        let mut v = x;
        memcheck::make_defined(
            core::ptr::addr_of_mut!(v) as *mut u8,
            core::mem::size_of::<T>(),
        );
        // SAFETY: `v` is a live, initialised local of type T; the volatile read makes the
        // compiler reload it from memory after the request instead of reusing a register
        // copy that memcheck would still consider undefined.
        unsafe { core::ptr::read_volatile(&v) }
    }
    #[cfg(not(all(feature = "ct-check", target_arch = "x86_64")))]
    {
        x
    }
}

/// Marks the memory of `x` public for memcheck in place, in a `ct-check` build (for
/// buffers: a hash output, a polynomial that is about to be published).
#[inline(always)]
pub(crate) fn public_mut<T: ?Sized>(x: &mut T) {
    #[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
    memcheck::make_defined(x as *mut T as *mut u8, core::mem::size_of_val(x));
    #[cfg(not(all(feature = "ct-check", target_arch = "x86_64")))]
    let _ = x;
}

/// `x` unchanged, passed through an empty `asm!` block so that the optimiser knows nothing
/// about the result (not that it is 0 or 1, nor an all-zeros / all-ones mask).
///
/// Without it, once the operations are inlined into a loop LLVM recognises `v & mask`,
/// `(v ^ mask) - mask` or `bit << k` as a select, lowers it to `cmov`, and x86's
/// cmov-conversion pass may then replace that with a conditional branch; on Thumb-2 the
/// same selects become `IT` blocks. A value of unknown provenance can only be combined
/// with plain ALU instructions. The block emits no instruction; it only pins the value
/// in a register at that point. Targets without stable inline assembly fall back to
/// [`core::hint::black_box`], which is best effort.
#[inline(always)]
pub(crate) fn barrier(x: u64) -> u64 {
    #[cfg(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    ))]
    {
        let mut x = x;
        // SAFETY: the template is a comment: no instruction, no memory, flags untouched.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(reg) x,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        x
    }
    #[cfg(any(target_arch = "x86", target_arch = "arm", target_arch = "riscv32"))]
    {
        // 32-bit registers: both halves, so that neither is known to be a mask.
        let (mut lo, mut hi) = (x as u32, (x >> 32) as u32);
        // SAFETY: as above.
        unsafe {
            core::arch::asm!(
                "/* {0} {1} */",
                inout(reg) lo,
                inout(reg) hi,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        ((hi as u64) << 32) | lo as u64
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64",
        target_arch = "x86",
        target_arch = "arm",
        target_arch = "riscv32"
    )))]
    {
        core::hint::black_box(x)
    }
}

/// [`barrier`] on a 32-bit word (the portable primitives' masks).
#[inline(always)]
pub(crate) fn barrier32(x: u32) -> u32 {
    #[cfg(any(target_arch = "x86", target_arch = "arm", target_arch = "riscv32"))]
    {
        let mut x = x;
        // SAFETY: as in `barrier`.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(reg) x,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        x
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "arm", target_arch = "riscv32")))]
    {
        // 64-bit registers: the zero extension is free.
        barrier(x as u64) as u32
    }
}

/// [`barrier`] on a byte (GF(16) masks, `kernels/gf16`).
#[inline(always)]
pub(crate) fn barrier_u8(x: u8) -> u8 {
    barrier32(x as u32) as u8
}

#[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
mod memcheck {
    /// Memcheck's tool requests start at `VG_USERREQ_TOOL_BASE('M', 'C')`.
    const MC_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
    const MAKE_MEM_DEFINED: usize = MC_BASE + 2;

    /// VALGRIND_MAKE_MEM_DEFINED(addr, len); a no-op outside valgrind.
    #[inline(always)]
    pub fn make_defined(addr: *mut u8, len: usize) {
        let block: [usize; 6] = [MAKE_MEM_DEFINED, addr as usize, len, 0, 0, 0];
        // SAFETY: valgrind's client-request preamble. On a real CPU the instructions
        // change nothing but the flags (rdi rotated by 3 + 13 + 61 + 51 = 128 bits, a
        // multiple of 64; xchg of rbx with itself) and rdx keeps its input (0), and flags
        // are clobbered by default. `block` is live across the asm and, as the asm may
        // read memory (no `nomem`), stored before it. Under valgrind the request only
        // changes memcheck's shadow bits for `addr..addr + len`, a live local of the
        // caller.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") block.as_ptr(),
                inout("rdx") 0usize => _,
                options(nostack),
            );
        }
    }
}

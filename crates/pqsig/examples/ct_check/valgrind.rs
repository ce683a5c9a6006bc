//! Memcheck client requests (valgrind.h / memcheck.h, x86-64), without a dependency;
//! shared by `ct_check.rs` and `ct_whole.rs` (each uses a subset).
#![allow(dead_code)]

/// `VG_USERREQ__RUNNING_ON_VALGRIND` (core request).
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// `VG_USERREQ__COUNT_ERRORS` (core request).
const COUNT_ERRORS: usize = 0x1201;
/// Memcheck's tool requests start at `VG_USERREQ_TOOL_BASE('M', 'C')`.
const MC_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
const MAKE_MEM_UNDEFINED: usize = MC_BASE + 1;
const MAKE_MEM_DEFINED: usize = MC_BASE + 2;
const GET_VBITS: usize = MC_BASE + 8;

/// One client request: `request(args)`, or `default` when not running on valgrind.
///
/// The "special instruction preamble" rotates rdi by 3 + 13 + 61 + 51 = 128 bits
/// (a no-op on a real CPU) and is followed by `xchg rbx, rbx` (also a no-op); valgrind
/// recognises the sequence and answers the request whose block address is in rax,
/// with the result in rdx.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn request(default: usize, req: usize, a1: usize, a2: usize, a3: usize) -> usize {
    let block: [usize; 6] = [req, a1, a2, a3, 0, 0];
    let result: usize;
    // SAFETY: on a real CPU the instructions change nothing but the flags (rdi is
    // rotated by a multiple of 64 bits; xchg of rbx with itself), and flags are
    // clobbered by default. `block` lives across the asm and, as the asm may read
    // memory (no `nomem`/`readonly`), the compiler stores it before. Under valgrind
    // the request only changes memcheck's shadow state or reads the addresses given
    // (which the callers derive from live references).
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") block.as_ptr(),
            inout("rdx") default => result,
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn request(default: usize, _req: usize, _a1: usize, _a2: usize, _a3: usize) -> usize {
    default
}

/// Number of valgrind layers this program runs under (0: a plain run).
pub fn running() -> usize {
    request(0, RUNNING_ON_VALGRIND, 0, 0, 0)
}

/// Errors valgrind has reported so far (0 outside valgrind).
pub fn error_count() -> usize {
    request(0, COUNT_ERRORS, 0, 0, 0)
}

/// Marks `x` as secret: memcheck reports any branch or address computed from it.
/// Takes `&mut` so the compiler reloads `x` after the request rather than reusing a
/// register copy (which memcheck would still consider defined).
#[inline(always)]
pub fn poison<T: ?Sized>(x: &mut T) {
    request(
        0,
        MAKE_MEM_UNDEFINED,
        x as *mut T as *mut u8 as usize,
        core::mem::size_of_val(x),
        0,
    );
}

/// Declassifies `x` (marks it defined again).
#[inline(always)]
pub fn unpoison<T: ?Sized>(x: &mut T) {
    request(
        0,
        MAKE_MEM_DEFINED,
        x as *mut T as *mut u8 as usize,
        core::mem::size_of_val(x),
        0,
    );
}

/// Declassifies a value the caller only holds by shared reference (a public key or
/// signature inside a library type). The request changes memcheck's shadow bits only,
/// never the bytes, so no `&mut` is needed.
#[inline(always)]
pub fn unpoison_ref<T: ?Sized>(x: &T) {
    request(
        0,
        MAKE_MEM_DEFINED,
        x as *const T as *const u8 as usize,
        core::mem::size_of_val(x),
        0,
    );
}

/// Memcheck's validity bits of `x` (one byte per byte of `x`, 0xFF = undefined),
/// or `None` outside valgrind.
pub fn vbits<T: ?Sized>(x: &T) -> Option<Vec<u8>> {
    let n = core::mem::size_of_val(x);
    let mut v = vec![0u8; n];
    let r = request(
        0,
        GET_VBITS,
        x as *const T as *const u8 as usize,
        v.as_mut_ptr() as usize,
        n,
    );
    (r == 1).then_some(v)
}

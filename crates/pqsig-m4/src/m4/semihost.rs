//! ARM semihosting (the `bkpt 0xab` convention on M-profile), the three calls the harness
//! needs: console output, the command line, and exit. QEMU serves them with `-semihosting`.

use core::arch::asm;

const SYS_WRITE0: u32 = 0x04;
const SYS_GET_CMDLINE: u32 = 0x15;
const SYS_EXIT: u32 = 0x18;
/// ADP_Stopped_ApplicationExit: QEMU exits with status 0.
const ADP_APPLICATION_EXIT: u32 = 0x20026;
/// ADP_Stopped_RunTimeErrorUnknown: QEMU exits with status 1.
const ADP_RUNTIME_ERROR: u32 = 0x20023;

/// One semihosting call: operation in r0, parameter block address in r1, result in r0.
///
/// # Safety
/// `arg` must be what operation `op` expects (a pointer to a live, correctly laid out
/// parameter block, or a plain value where the operation takes one).
unsafe fn call(op: u32, arg: usize) -> u32 {
    let mut r0 = op;
    // SAFETY: bkpt 0xab traps to the debugger (QEMU), which reads r0/r1 and the memory r1
    // points to as the caller guaranteed; it writes only r0 (and buffers named in the block).
    unsafe {
        asm!("bkpt #0xab", inout("r0") r0, in("r1") arg, options(nostack));
    }
    r0
}

/// Writes `s` to the host console (a NUL-terminated copy, chunked through a stack buffer).
pub fn write(s: &str) {
    let mut buf = [0u8; 257];
    for chunk in s.as_bytes().chunks(256) {
        buf[..chunk.len()].copy_from_slice(chunk);
        buf[chunk.len()] = 0;
        // SAFETY: SYS_WRITE0 reads the NUL-terminated string at the address; buf lives
        // across the call and holds a NUL within its bounds.
        unsafe {
            call(SYS_WRITE0, buf.as_ptr() as usize);
        }
    }
}

/// `write` plus a newline.
pub fn writeln(s: &str) {
    write(s);
    write("\n");
}

/// The command line QEMU passes (`-kernel` path, then the `-append` words), into `buf`;
/// the bytes written. Empty when the host refuses.
pub fn cmdline(buf: &mut [u8]) -> &[u8] {
    let mut block: [usize; 2] = [buf.as_mut_ptr() as usize, buf.len()];
    // SAFETY: SYS_GET_CMDLINE takes {buffer address, buffer length}, writes at most that
    // many bytes (NUL included) into the buffer and the length used into block[1].
    let r = unsafe { call(SYS_GET_CMDLINE, block.as_mut_ptr() as usize) };
    if r != 0 || block[1] > buf.len() {
        return &[];
    }
    &buf[..block[1]]
}

/// Ends the emulation: status 0 when `ok`, 1 otherwise.
pub fn exit(ok: bool) -> ! {
    let reason = if ok {
        ADP_APPLICATION_EXIT
    } else {
        ADP_RUNTIME_ERROR
    };
    loop {
        // SAFETY: on 32-bit ARM SYS_EXIT takes the reason code itself in r1; QEMU ends the
        // process and does not return (the loop covers a host that does).
        unsafe {
            call(SYS_EXIT, reason as usize);
        }
    }
}

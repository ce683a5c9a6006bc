//! The bare-metal side: reset entry (cortex-m-rt), heap, semihosting console, and the
//! meter that counts instructions, stack and heap around each operation.

mod heap;
mod semihost;
mod stack;
mod timer;

use alloc::format;
// Linked for its single-core critical-section implementation (the heap's lock).
use cortex_m as _;
use cortex_m_rt::{entry, exception, ExceptionFrame};

use crate::workload::{self, Costs, Failure, Meter, Plan};

/// Loop turns of the calibration (2 instructions each).
const CALIBRATION_TURNS: u32 = 1_000_000;

struct M4Meter;

impl Meter for M4Meter {
    fn measure<R>(&mut self, op: &mut dyn FnMut() -> R) -> (R, Costs) {
        // Hidden from the optimiser: were the closure devirtualised and inlined here, the
        // operation's locals would sit in this frame, allocated before the painting.
        let op = core::hint::black_box(op);
        let painted = stack::paint();
        let heap_before = heap::HEAP.reset_peak();
        let before = timer::now();
        let r = op();
        let after = timer::now();
        let costs = Costs {
            instructions: Some(timer::instructions(before, after)),
            stack_bytes: Some(stack::peak(&painted)),
            heap_bytes: Some((heap::HEAP.peak() - heap_before) as u32),
        };
        (r, costs)
    }
}

#[entry]
fn main() -> ! {
    heap::HEAP.init();
    timer::start();

    let (expected, measured) = timer::calibrate(CALIBRATION_TURNS);
    semihost::writeln(&format!(
        "{{\"alg\":\"calibration\",\"op\":\"loop\",\"expected_instructions\":{expected},\"instructions\":{measured}}}"
    ));

    let mut buf = [0u8; 256];
    let line = core::str::from_utf8(semihost::cmdline(&mut buf)).unwrap_or("");
    let line = line.trim_end_matches('\0');
    // The first word is the kernel image's path; the rest are the harness's words.
    let plan = match Plan::parse(line.split_ascii_whitespace().skip(1)) {
        Ok(p) => p,
        Err(w) => {
            semihost::writeln(&format!("error: unknown word {:?}", w.0));
            semihost::exit(false);
        }
    };
    match workload::run(&plan, &mut M4Meter, &mut |l| semihost::writeln(l)) {
        Ok(()) => {
            semihost::writeln("{\"done\":true}");
            semihost::exit(true)
        }
        Err(f) => {
            report_failure(&f);
            semihost::exit(false)
        }
    }
}

fn report_failure(f: &Failure) {
    semihost::writeln(&format!("error: {f}"));
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    semihost::writeln(&format!("panic: {info}"));
    semihost::exit(false)
}

#[exception]
unsafe fn HardFault(ef: &ExceptionFrame) -> ! {
    semihost::writeln(&format!("hard fault at pc={:#010x}", ef.pc()));
    semihost::exit(false)
}

//! The `timed` accelerator's CPU work per request (copies, conversion, transform),
//! without the release wait: what must fit inside the modelled device time.
use pqsig_card::accel::{Accelerator, Timed};
use pqsig_card::regs::Mode;
use std::time::Instant;

fn main() {
    let t = Timed::new(
        pqsig_card::CycleModel::default(),
        1e9,
        pqsig::backend::active(),
    );
    for polys in [4u32, 16, 64, 256] {
        let mut data = vec![0u8; polys as usize * 1024];
        let mut best = u128::MAX;
        let mut all = Vec::new();
        for _ in 0..200 {
            data.fill(0);
            let s = Instant::now();
            t.run(Mode::MlDsaNtt, polys, &mut data, Instant::now())
                .unwrap();
            let e = s.elapsed().as_nanos();
            best = best.min(e);
            all.push(e);
        }
        all.sort();
        println!(
            "{polys} polys: best {best} ns, median {} ns",
            all[all.len() / 2]
        );
    }
}

// temporary profiling driver (not committed)
use pqsig::mldsa::{keygen_internal_bytes_on, ParamSet, SigningKey, VerifyingKey};
use pqsig::Backend;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
struct Cnt;
static ON: AtomicBool = AtomicBool::new(false);
unsafe impl GlobalAlloc for Cnt {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if ON.load(Ordering::Relaxed) {
            ON.store(false, Ordering::Relaxed);
            eprintln!("alloc {} align {}", l.size(), l.align());
            ON.store(true, Ordering::Relaxed);
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}
#[global_allocator]
static G: Cnt = Cnt;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let ps = match a[2].as_str() {
        "44" => ParamSet::MlDsa44,
        "65" => ParamSet::MlDsa65,
        _ => ParamSet::MlDsa87,
    };
    let b = if a[3] == "avx2" {
        Backend::Avx2
    } else {
        Backend::Avx512
    };
    pqsig::backend::set_backend(b).unwrap();
    let n: usize = a[4].parse().unwrap();
    let xi = [7u8; 32];
    let (pk, sk) = keygen_internal_bytes_on(ps, &xi, b).unwrap();
    let s = SigningKey::from_expanded(ps, &sk).unwrap();
    let sig = s.sign_deterministic(b"hello", b"").unwrap();
    ON.store(std::env::var("TRACE").is_ok(), Ordering::Relaxed);
    for i in 0..n {
        match a[1].as_str() {
            "keygen" => {
                let mut x = xi;
                x[0] = i as u8;
                black_box(keygen_internal_bytes_on(ps, &x, b).unwrap());
            }
            "verify" => {
                let v = VerifyingKey::from_bytes(ps, &pk).unwrap();
                assert!(v.verify(b"hello", b"", &sig).is_ok());
            }
            _ => {
                let s = SigningKey::from_expanded(ps, &sk).unwrap();
                black_box(s.sign_deterministic(b"hello", b"").unwrap());
            }
        }
    }
}

use pqsig::snova::{self, ParamSet};
use pqsig::Backend;
use std::hint::black_box;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let ps = ParamSet::from_name(&a[1]).unwrap();
    let b = Backend::from_name(&a[2]).unwrap();
    let op = a[3].as_str();
    let n: usize = a[4].parse().unwrap();
    pqsig::kernels::select::set_backend(b).unwrap();
    let seed: Vec<u8> = (0..48u8).collect();
    let (sk, vk) = snova::keygen_from_seed(ps, &seed).unwrap();
    let (sk, vk) = (sk.with_backend(b).unwrap(), vk.with_backend(b).unwrap());
    let esk = sk.expand();
    let msg = [0x5au8; 32];
    let sig = esk.sign_with_salt(&msg, &[7; 16]).unwrap();
    let pvk = vk.prepare();
    for i in 0..n {
        let s = [(i % 251) as u8; 16];
        match op {
            "kg" => {
                black_box(snova::keygen_from_seed(ps, &seed).unwrap());
            }
            "sign" => {
                black_box(sk.sign_with_salt(&msg, &s).unwrap());
            }
            "signx" => {
                black_box(esk.sign_with_salt(&msg, &s).unwrap());
            }
            "verify" => {
                vk.verify(&msg, &sig).unwrap();
            }
            "verifyp" => {
                pvk.verify(&msg, &sig).unwrap();
            }
            _ => panic!(),
        }
    }
}

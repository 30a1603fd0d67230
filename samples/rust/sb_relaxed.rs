// sb_relaxed.rs — the store-buffer litmus (SB) in Rust, with Relaxed
// atomics: each thread stores 1 to its flag, then loads the other's.
// Relaxed orders nothing, and on x86 each store can still sit in its
// store buffer when the other thread loads: both loads can read 0 under
// tso and pso (not under sc), and main's assert! panics.  sb_seqcst.rs
// is the fixed version.
// expect sc: ok
// expect tso: panic
// expect pso: panic
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;

static X: AtomicU32 = AtomicU32::new(0);
static Y: AtomicU32 = AtomicU32::new(0);

fn left() -> u32 {
    X.store(1, Ordering::Relaxed);
    Y.load(Ordering::Relaxed)
}

fn right() -> u32 {
    Y.store(1, Ordering::Relaxed);
    X.load(Ordering::Relaxed)
}

fn main() {
    let a = thread::spawn(left);
    let b = thread::spawn(right);
    let r0 = a.join().unwrap();
    let r1 = b.join().unwrap();
    assert!(!(r0 == 0 && r1 == 0), "both threads read 0");
}

// sb_seqcst.rs — sb_relaxed.rs fixed: SeqCst stores (rustc emits xchg,
// which drains the store buffer) and SeqCst loads.  At least one thread
// reads the other's 1 under every model.
// expect sc: ok
// expect tso: ok
// expect pso: ok
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;

static X: AtomicU32 = AtomicU32::new(0);
static Y: AtomicU32 = AtomicU32::new(0);

fn left() -> u32 {
    X.store(1, Ordering::SeqCst);
    Y.load(Ordering::SeqCst)
}

fn right() -> u32 {
    Y.store(1, Ordering::SeqCst);
    X.load(Ordering::SeqCst)
}

fn main() {
    let a = thread::spawn(left);
    let b = thread::spawn(right);
    let r0 = a.join().unwrap();
    let r1 = b.join().unwrap();
    assert!(!(r0 == 0 && r1 == 0), "both threads read 0");
}

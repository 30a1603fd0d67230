// panic_thread.rs — a panic in a spawned thread.  Two threads each pop
// one item from a stack that holds one: each checks that the stack is
// not empty, then takes the top index with fetch_sub.  When both pass
// the check first, the second takes index 0 - 1: an out-of-bounds index
// (with overflow checks: a subtraction overflow), a panic in that
// thread.  panic_fixed.rs pops with one compare-and-swap.
// expect sc: panic
// expect tso: panic
// expect pso: panic
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

static ITEMS: [u64; 1] = [42];
static LEN: AtomicUsize = AtomicUsize::new(1);

fn pop() -> u64 {
    if LEN.load(Ordering::SeqCst) > 0 {
        let top = LEN.fetch_sub(1, Ordering::SeqCst);
        return ITEMS[top.wrapping_sub(1)];
    }
    0
}

fn main() {
    let a = thread::spawn(pop);
    let b = thread::spawn(pop);
    let sum = a.join().unwrap() + b.join().unwrap();
    assert_eq!(sum, 42);
}

// panic_fixed.rs — panic_thread.rs fixed: pop takes the top index with
// fetch_update, which only succeeds while the stack is not empty.
// expect sc: ok
// expect tso: ok
// expect pso: ok
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

static ITEMS: [u64; 1] = [42];
static LEN: AtomicUsize = AtomicUsize::new(1);

fn pop() -> u64 {
    match LEN.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)) {
        Ok(top) => ITEMS[top - 1],
        Err(_) => 0,
    }
}

fn main() {
    let a = thread::spawn(pop);
    let b = thread::spawn(pop);
    let sum = a.join().unwrap() + b.join().unwrap();
    assert_eq!(sum, 42);
}

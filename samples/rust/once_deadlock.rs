// once_deadlock.rs — two std::sync::Once objects initialised inside each
// other in opposite orders: the worker's closure for A calls B, main's
// closure for B calls A.  When each thread has claimed its first Once
// before the other calls it, both wait for ever: a deadlock, found in the
// few executions of the claims' orders (docs/LIBRARY.md, "Rust's Once").
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
use std::sync::Once;
use std::thread;

static A: Once = Once::new();
static B: Once = Once::new();

fn main() {
    let w = thread::spawn(|| A.call_once(|| B.call_once(|| {})));
    B.call_once(|| A.call_once(|| {}));
    w.join().unwrap();
}

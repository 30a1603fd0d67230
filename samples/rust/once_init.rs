// once_init.rs — main and a worker each count themselves in, then call
// one std::sync::Once whose closure records who ran it and adds 10; each
// then reads the count and the runner.  Whoever calls first runs the
// closure; the other waits for it, or finds it done.  Once::call is one
// event when the Once is done and a claim when it is not started: the
// threads race in their claims, not in std's compare-exchanges and futex
// waits (docs/LIBRARY.md, "Rust's Once"): 18 executions under sc (103
// through std's code), the same four outcomes as `--sync instructions`.
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: worker x=11 by 1, main x=12 by 1
// outcome sc tso pso: exit 0: worker x=12 by 0, main x=11 by 0
// outcome sc tso pso: exit 0: worker x=12 by 0, main x=12 by 0
// outcome sc tso pso: exit 0: worker x=12 by 1, main x=12 by 1
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;
use std::thread;

static INIT: Once = Once::new();
static BY: AtomicU64 = AtomicU64::new(9);
static X: AtomicU64 = AtomicU64::new(0);

fn get(id: u64) -> (u64, u64) {
    X.fetch_add(1, Ordering::Relaxed);
    INIT.call_once(|| {
        BY.store(id, Ordering::Relaxed);
        X.fetch_add(10, Ordering::Relaxed);
    });
    (X.load(Ordering::Relaxed), BY.load(Ordering::Relaxed))
}

fn main() {
    let w = thread::spawn(|| get(1));
    let (mx, mb) = get(0);
    let (wx, wb) = w.join().unwrap();
    println!("worker x={} by {}, main x={} by {}", wx, wb, mx, mb);
}

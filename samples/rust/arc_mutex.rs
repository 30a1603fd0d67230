// arc_mutex.rs — two threads each add 1 twice to a u64 in an
// Arc<Mutex<u64>>, each time holding the lock; main checks the sum.
// Correct under every model: std's Mutex (futex-based, no pthread) takes
// the lock with a locked cmpxchg and releases it with a locked xchg.
// arc_mutex_racy.rs is the broken version.  The search does not complete
// yet (std's futex Mutex spins 100 times before FUTEX_WAIT: a counted spin
// now, docs/EXPLORATION.md, but the lock's atomics, Arc's counts and the
// threads' start and exit still race: 9,750 executions in 120 s under sc;
// 2 threads x 1 increment: 88, complete), so the case is bounded: no error
// in the first 300 executions under each model.
// x86smc: --max-executions 300
// expect sc: ok
// expect tso: ok
// expect pso: ok
use std::sync::{Arc, Mutex};
use std::thread;

fn worker(c: Arc<Mutex<u64>>) {
    for _ in 0..2 {
        *c.lock().unwrap() += 1;
    }
}

fn main() {
    let c = Arc::new(Mutex::new(0u64));
    let (c1, c2) = (Arc::clone(&c), Arc::clone(&c));
    let a = thread::spawn(move || worker(c1));
    let b = thread::spawn(move || worker(c2));
    a.join().unwrap();
    b.join().unwrap();
    assert_eq!(*c.lock().unwrap(), 4);
}

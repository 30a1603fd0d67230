// arc_mutex.rs — two threads each add 1 twice to a u64 in an
// Arc<Mutex<u64>>, each time holding the lock; main checks the sum.
// Correct under every model.  std's Mutex is a futex word (no pthread):
// its lock is a lock cmpxchg 0 -> 1 inlined into worker, which calls
// lock_contended (spin, mark the word 2, FUTEX_WAIT) when it fails; its
// unlock an xchg with 0.  x86smc makes the cmpxchg wait for 0 instead of
// failing and the contended call one event (src/tracer/sync.c), so the
// search sees the lock as pthread mutexes are seen: 12 executions, 6
// orders of the four critical sections times 2 orders of the two Arc
// decrements (9,750 executions and no end in 120 s before;
// tests/e2e/counts.txt).
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

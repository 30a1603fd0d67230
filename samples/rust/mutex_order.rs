// mutex_order.rs — two threads each append their id twice to a Vec in an
// Arc<Mutex<..>>, one element per critical section; main prints the Vec.
// Every order of the four critical sections (6) is an outcome under every
// model, and nothing else: the lock's fast path (a lock cmpxchg inlined
// into worker) waits while the word is held instead of failing
// (src/tracer/sync.c), so no order may be lost to that shortcut.
// Checked against the lock explored instruction by instruction
// (--sync instructions): the same 6 outcomes.
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: [1, 1, 2, 2]
// outcome sc tso pso: exit 0: [1, 2, 1, 2]
// outcome sc tso pso: exit 0: [1, 2, 2, 1]
// outcome sc tso pso: exit 0: [2, 1, 1, 2]
// outcome sc tso pso: exit 0: [2, 1, 2, 1]
// outcome sc tso pso: exit 0: [2, 2, 1, 1]
use std::sync::{Arc, Mutex};
use std::thread;

fn worker(log: Arc<Mutex<Vec<u8>>>, id: u8) {
    for _ in 0..2 {
        log.lock().unwrap().push(id);
    }
}

fn main() {
    let log = Arc::new(Mutex::new(Vec::with_capacity(8)));
    let (l1, l2) = (Arc::clone(&log), Arc::clone(&log));
    let a = thread::spawn(move || worker(l1, 1));
    let b = thread::spawn(move || worker(l2, 2));
    a.join().unwrap();
    b.join().unwrap();
    let v = log.lock().unwrap();
    println!("{:?}", *v);
}

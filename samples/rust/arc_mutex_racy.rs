// arc_mutex_racy.rs — arc_mutex.rs broken: each increment reads the value
// under the lock, releases it, and writes the new value under the lock
// again; two threads can read the same value and an increment is lost.
// main's assert_eq! panics under every model.
// expect sc: panic
// expect tso: panic
// expect pso: panic
use std::sync::{Arc, Mutex};
use std::thread;

fn worker(c: Arc<Mutex<u64>>) {
    for _ in 0..2 {
        let v = *c.lock().unwrap();
        *c.lock().unwrap() = v + 1;
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

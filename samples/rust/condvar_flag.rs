// condvar_flag.rs — a consumer waits on a Condvar until main sets a flag
// under the Mutex and notifies; it counts the item and returns whether it
// had to wait.  std's Condvar waits on a futex of its own and relocks the
// Mutex through the lock's fast path and lock_contended: correct under
// every model, both outcomes reached (the same two as with the lock
// explored instruction by instruction, --sync instructions).
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: waited 0 count 1
// outcome sc tso pso: exit 0: waited 1 count 1
use std::sync::{Arc, Condvar, Mutex};
use std::thread;

fn main() {
    let p = Arc::new((Mutex::new((false, 0u32)), Condvar::new()));
    let p2 = Arc::clone(&p);
    let c = thread::spawn(move || {
        let (m, cv) = &*p2;
        let mut g = m.lock().unwrap();
        let mut waited = 0;
        while !g.0 {
            g = cv.wait(g).unwrap();
            waited = 1;
        }
        g.1 += 1;
        waited
    });
    {
        let (m, cv) = &*p;
        let mut g = m.lock().unwrap();
        g.0 = true;
        cv.notify_one();
    }
    let w = c.join().unwrap();
    let g = p.0.lock().unwrap();
    println!("waited {} count {}", w, g.1);
}

// park_flag.rs — a worker parks until main sets a flag and unparks it
// (the documented pattern: park can return spuriously, so it loops on
// the flag).  std's park/unpark is a futex-based parker: unpark before
// park leaves a token, park after it returns at once.  Correct under
// every model; the worker prints whether it parked before the flag came.
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: flag seen
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

fn main() {
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = Arc::clone(&flag);
    let w = thread::spawn(move || {
        while !f2.load(Ordering::Acquire) {
            thread::park();
        }
        println!("flag seen");
    });
    flag.store(true, Ordering::Release);
    w.thread().unpark();
    w.join().unwrap();
}

// rwlock_rw.rs — a reader and a writer on a std::sync::RwLock: the reader
// sees the value before or after the write, never anything else.  The
// contended paths of std's futex RwLock (read_contended, write_contended,
// wake_writer_or_readers) are atomic sections (docs/LIBRARY.md, "Rust's
// std as sections"); the inlined fast paths (a compare-exchange to take,
// a fetch_sub to release) stay instructions.
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: read 0
// outcome sc tso pso: exit 0: read 5
use std::sync::{Arc, RwLock};
use std::thread;

fn main() {
    let l = Arc::new(RwLock::new(0u32));
    let l2 = Arc::clone(&l);
    let r = thread::spawn(move || *l2.read().unwrap());
    *l.write().unwrap() = 5;
    println!("read {}", r.join().unwrap());
}

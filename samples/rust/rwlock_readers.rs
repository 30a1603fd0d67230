// rwlock_readers.rs — three threads read one std::sync::RwLock at once.
// A reader's lock (a compare-exchange inlined into the program) and its
// unlock (a fetch_sub of 1) change the lock's word, but readers commute:
// with no writer about, any order of their locks and unlocks ends the
// same.  They are events that read the word only (docs/LIBRARY.md, "Rust's
// RwLock: readers commute"): one execution (1,752 when every reader's
// compare-exchange, unlock and load raced with the others').
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: sum 15
use std::sync::RwLock;
use std::thread;

static L: RwLock<u64> = RwLock::new(5);

fn main() {
    let hs: Vec<_> = (0..3).map(|_| thread::spawn(|| *L.read().unwrap())).collect();
    let s: u64 = hs.into_iter().map(|h| h.join().unwrap()).sum();
    println!("sum {}", s);
}

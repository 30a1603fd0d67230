// rwlock_2r1w.rs — two readers and a writer on one std::sync::RwLock:
// each reader sees the value before or after the write.  Readers do not
// race with each other (docs/LIBRARY.md, "Rust's RwLock: readers
// commute"), only with the writer's compare-exchange, its unlock and
// std's contended paths: 614 executions (1,168 before; `--sync
// instructions`, std's code: not complete in 120 s), the same four
// outcomes.
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 0 0
// outcome sc tso pso: exit 0: 0 1
// outcome sc tso pso: exit 0: 1 0
// outcome sc tso pso: exit 0: 1 1
use std::sync::RwLock;
use std::thread;

static L: RwLock<u64> = RwLock::new(0);

fn rd() -> u64 {
    *L.read().unwrap()
}

fn main() {
    let a = thread::spawn(rd);
    let b = thread::spawn(rd);
    *L.write().unwrap() = 1;
    println!("{} {}", a.join().unwrap(), b.join().unwrap());
}

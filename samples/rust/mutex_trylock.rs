// mutex_trylock.rs — try_lock against lock: t1 adds 1, then 10, each under
// the lock; t2 tries once (adds 100 if it got the lock) and then reads the
// value under the lock.  try_lock is the same lock cmpxchg as the lock's
// fast path but fails instead of waiting: x86smc must leave it alone (only
// a cmpxchg whose failure calls lock_contended waits), or "busy" is never
// printed.  8 outcomes under every model, as with the lock explored
// instruction by instruction (--sync instructions).
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: busy then 1 final 11
// outcome sc tso pso: exit 0: busy then 11 final 11
// outcome sc tso pso: exit 0: got 100 then 100 final 111
// outcome sc tso pso: exit 0: got 100 then 101 final 111
// outcome sc tso pso: exit 0: got 100 then 111 final 111
// outcome sc tso pso: exit 0: got 101 then 101 final 111
// outcome sc tso pso: exit 0: got 101 then 111 final 111
// outcome sc tso pso: exit 0: got 111 then 111 final 111
use std::sync::{Arc, Mutex};
use std::thread;

fn main() {
    let m = Arc::new(Mutex::new(0u32));
    let (m1, m2) = (Arc::clone(&m), Arc::clone(&m));
    let a = thread::spawn(move || {
        *m1.lock().unwrap() += 1;
        *m1.lock().unwrap() += 10;
    });
    let b = thread::spawn(move || {
        let r = match m2.try_lock() {
            Ok(mut g) => {
                *g += 100;
                format!("got {}", *g)
            }
            Err(_) => "busy".to_string(),
        };
        let v = *m2.lock().unwrap();
        format!("{} then {}", r, v)
    });
    a.join().unwrap();
    let s = b.join().unwrap();
    println!("{} final {}", s, *m.lock().unwrap());
}

// channel_deadlock.rs — main collects what a worker sends until the
// channel is closed, but keeps its own Sender alive: the channel never
// closes and main waits for ever once the worker is done.  A deadlock
// under every model, found in the first execution.  The report shows
// main at its own `for` loop (channel_deadlock.rs), not inside std's
// futex code, which is linked into the executable too: the blocked
// thread's stack is unwound to the program's frame (tracer_user_pc).
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
use std::sync::mpsc;
use std::thread;

fn main() {
    let (tx, rx) = mpsc::channel::<u32>();
    let tx2 = tx.clone();
    let worker = thread::spawn(move || {
        tx2.send(1).unwrap();
    });
    let mut sum = 0;
    for x in rx.iter() {
        sum += x;
    }
    worker.join().unwrap();
    drop(tx);
    println!("{}", sum);
}

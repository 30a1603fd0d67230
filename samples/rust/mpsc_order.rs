// mpsc_order.rs — two producers and one consumer on a std::sync::mpsc
// channel: A sends 1 then 2, B sends 10; the consumer prints the order it
// received them in.  Every order that keeps A's two messages in order is
// possible, and nothing else: three outcomes under every model.  Each
// send, recv and drop of std's channel is one atomic section
// (docs/LIBRARY.md, "Rust's std as sections"), so the search is over the
// orders of those calls, not over std's lock-free queue; the same three
// outcomes as with the channel explored instruction by instruction
// (--sync instructions), with about a hundred executions instead of more
// than 14,000.
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: [1, 2, 10]
// outcome sc tso pso: exit 0: [1, 10, 2]
// outcome sc tso pso: exit 0: [10, 1, 2]
use std::sync::mpsc;
use std::thread;

fn main() {
    let (tx, rx) = mpsc::channel::<u32>();
    let tx2 = tx.clone();
    let a = thread::spawn(move || {
        tx.send(1).unwrap();
        tx.send(2).unwrap();
    });
    let b = thread::spawn(move || {
        tx2.send(10).unwrap();
    });
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(rx.recv().unwrap());
    }
    a.join().unwrap();
    b.join().unwrap();
    println!("{:?}", got);
}

// sync_channel.rs — a rendezvous channel (std::sync::mpsc::sync_channel(0)):
// A sends 1, B sends 3, and main receives both.  Each send blocks inside
// std until main takes its message, so both sends and receives are atomic
// sections that block in the middle (docs/LIBRARY.md, "Rust's std as
// sections").
// When main is woken by A's send, B's send can still come first: [3, 1]
// is a possible outcome.  It was missed while a thread woken inside a
// section ran the rest of it at once (samples/section_wake.c).
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: [1, 3]
// outcome sc tso pso: exit 0: [3, 1]
use std::sync::mpsc;
use std::thread;

fn main() {
    let (tx, rx) = mpsc::sync_channel::<u32>(0);
    let tx2 = tx.clone();
    let a = thread::spawn(move || tx.send(1).unwrap());
    let b = thread::spawn(move || tx2.send(3).unwrap());
    let got: Vec<u32> = rx.iter().collect();
    a.join().unwrap();
    b.join().unwrap();
    println!("{:?}", got);
}

//! DHAT: ad-hoc events with weights; run with `--tool=dhat --mode=ad-hoc`. With the argument
//! `histogram`, a heap block asked to be histogrammed (`--tool=dhat`, heap mode).

use benchgrind::client_requests::dhat;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("histogram") {
        // A block over DHAT's 1024-byte histogram limit, asked to be histogrammed anyway.
        let block = std::hint::black_box(vec![1u8; 4096]);
        dhat::histogram_memory(block.as_ptr());
        let sum: u64 = block.iter().map(|&b| u64::from(b)).sum();
        println!("sum={sum}");
        return;
    }
    for _ in 0..5 {
        dhat::ad_hoc_event(3);
    }
    dhat::ad_hoc_event(7);
}

//! DHAT: ad-hoc events with weights; run with `--tool=dhat --mode=ad-hoc`.

use benchgrind::client_requests::dhat;

fn main() {
    for _ in 0..5 {
        dhat::ad_hoc_event(3);
    }
    dhat::ad_hoc_event(7);
}

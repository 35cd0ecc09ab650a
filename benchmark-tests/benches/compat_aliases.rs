// Groups of one name from several modules, handed to main! under `use ... as` names, as bench
// files written for iai-callgrind do (issue 34): each runs, and is reported, under its alias.

mod shapes {
    pub mod square {
        use benchgrind::{library_benchmark, library_benchmark_group};
        use std::hint::black_box;

        #[library_benchmark]
        #[bench::seven(7)]
        fn area(side: u64) -> u64 {
            black_box(side * side)
        }

        library_benchmark_group!(name = callgrind_group; benchmarks = area);
    }

    pub mod circle {
        use benchgrind::{library_benchmark, library_benchmark_group};
        use std::hint::black_box;

        #[library_benchmark]
        #[bench::seven(7)]
        fn area(radius: u64) -> u64 {
            black_box(radius * radius * 314 / 100)
        }

        library_benchmark_group!(name = callgrind_group; benchmarks = area);
    }
}

use benchgrind::main;
use shapes::circle::callgrind_group as circles;
use shapes::square::callgrind_group as squares;

main!(library_benchmark_groups = squares, circles);

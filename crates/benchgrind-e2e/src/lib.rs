//! End-to-end tests of benchgrind; the bench programs are in `src/bin`, the tests in `tests`.

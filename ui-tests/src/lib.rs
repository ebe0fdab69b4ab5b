//! Nothing here: the compile-fail tests live in `tests/ui.rs` and `tests/ui/`.

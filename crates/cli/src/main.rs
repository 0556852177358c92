//! The `bashni` command.
fn main() {}

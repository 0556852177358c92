#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| bashni_invariants::server_messages(data));

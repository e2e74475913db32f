#![no_main]

use api_core::{MicroTime, Time};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(t) = Time::parse(text) {
        let printed = t.to_string();
        let reparsed = Time::parse(&printed).unwrap_or_else(|e| {
            panic!("{text:?} printed as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(reparsed, t, "{text:?} printed as {printed:?}");
    }
    if let Ok(t) = MicroTime::parse(text) {
        let printed = t.to_string();
        let reparsed = MicroTime::parse(&printed).unwrap_or_else(|e| {
            panic!("{text:?} printed as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(reparsed, t, "{text:?} printed as {printed:?}");
    }
});

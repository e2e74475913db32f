#![no_main]

use api_core::labels::Selector;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(selector) = Selector::parse(text) else {
        return;
    };
    let printed = selector.to_string();
    let reparsed = Selector::parse(&printed)
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which does not parse: {e}"));
    assert_eq!(reparsed, selector, "{text:?} printed as {printed:?}");
});

#![no_main]

//! `Quantity`, `Duration` and `IntOrString` on arbitrary text: parsing never
//! panics, and what parses prints as text that parses back to the same
//! value (and, for quantities, to a fixed point from the first re-parse).

use std::str::FromStr;

use api_core::{Duration, IntOrString, Quantity};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(q) = Quantity::from_str(text) {
        let printed = q.to_string();
        let back = Quantity::from_str(&printed).unwrap_or_else(|e| {
            panic!("{text:?} printed as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(back, q, "{text:?} printed as {printed:?}");
        let canonical = back.to_string();
        assert_eq!(
            Quantity::from_str(&canonical)
                .map(|c| c.to_string())
                .as_deref(),
            Ok(canonical.as_str())
        );
        let _ = (
            q.value(),
            q.milli_value(),
            q.checked_add(back),
            q.checked_sub(back),
        );
    }
    if let Ok(d) = Duration::from_str(text) {
        let printed = d.to_string();
        let back = Duration::from_str(&printed).unwrap_or_else(|e| {
            panic!("{text:?} printed as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(back, d, "{text:?} printed as {printed:?}");
    }
    let _ = serde_json::from_str::<Quantity>(text);
    let _ = serde_json::from_str::<Duration>(text);
    if let Ok(v) = serde_json::from_str::<IntOrString>(text) {
        let _ = v.get_scaled_value_from_int_or_percent(100, true);
        let json = serde_json::to_string(&v).expect("serializes");
        assert_eq!(serde_json::from_str::<IntOrString>(&json).ok(), Some(v));
    }
});

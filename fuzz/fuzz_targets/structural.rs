#![no_main]

use api_core::schema::structural::{SchemaCheckOptions, check_crd, check_schema};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for status_subresource in [false, true] {
        let _ = check_schema(&schema, &SchemaCheckOptions { status_subresource });
    }
    // The same value read as a whole CRD.
    let _ = check_crd(&schema);
});

#![no_main]

use api_core::decode::{DecodeOptions, FieldValidation, decode};
use examples::cronjob::CronJob;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = decode::<CronJob>(data, &DecodeOptions::default());
    let strict = DecodeOptions {
        field_validation: FieldValidation::Strict,
        ..DecodeOptions::default()
    };
    let _ = decode::<CronJob>(data, &strict);
});

#![no_main]

//! The conversion webhook and the conversion graph on arbitrary bytes: a
//! `ConversionReview` body, and the same bytes as an object converted to
//! each version of the CronTab example. Nothing may panic; a review that
//! succeeds must return one object per input, in the desired version.

use api_core::conversion::ConversionReview;
use examples::crontab;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let versions = crontab::versions();
    if let Ok(body) = versions.review_json(data) {
        let review: ConversionReview =
            serde_json::from_slice(&body).expect("the response is a ConversionReview");
        let request: ConversionReview = serde_json::from_slice(data).expect("it parsed before");
        let request = request.request.expect("a request");
        let response = review.response.expect("a response");
        assert_eq!(response.uid, request.uid);
        if response.result.status == "Success" {
            assert_eq!(response.converted_objects.len(), request.objects.len());
            for o in &response.converted_objects {
                assert_eq!(o["apiVersion"], request.desired_api_version.as_str());
            }
        }
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        for target in ["stable.example.com/v1", "stable.example.com/v1alpha1"] {
            let _ = versions.convert(value.clone(), target);
        }
    }
});

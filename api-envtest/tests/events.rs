//! Expectations on events: kube-runtime's `Recorder` publishes an
//! `events.k8s.io/v1` Event about an object and `TestEnv::wait_for_event`
//! finds it by the object and the reason; a reason that never comes
//! fails with the events that did; the Event is a core/v1 Event too.

use std::time::Duration;

use api_core::kube::Kube;
use api_envtest::{BuiltinKinds, TestEnv};
use examples::memcached::{Memcached, MemcachedSpec};
use kube::Resource;
use kube::api::{Api, PostParams};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};

#[tokio::test]
async fn an_event_about_an_object_is_found_by_its_reason() {
    let env = TestEnv::builder()
        .resource::<Memcached>()
        .builtin_kinds(BuiltinKinds::Only(vec!["events".into()]))
        .start()
        .await;
    let api: Api<Kube<Memcached>> = Api::default_namespaced(env.client());
    let mc = api
        .create(
            &PostParams::default(),
            &Memcached::new("m", MemcachedSpec { size: Some(1) }).into(),
        )
        .await
        .unwrap();
    let recorder = Recorder::new(env.client(), Reporter::from("memcached-controller"));
    let event = Event {
        type_: EventType::Normal,
        reason: "Scaled".into(),
        note: Some("scaled to 1".into()),
        action: "Scale".into(),
        secondary: None,
    };
    recorder.publish(&event, &mc.object_ref(&())).await.unwrap();
    let found = env.wait_for_event(&mc, "Scaled").await;
    assert_eq!(found.note.as_deref(), Some("scaled to 1"));
    assert_eq!(
        found.reporting_controller.as_deref(),
        Some("memcached-controller")
    );
    // The same Event through core/v1, where `kubectl get events` and
    // `kubectl describe` read: one resource in two groups, as upstream.
    let core: Api<k8s_openapi::api::core::v1::Event> = Api::default_namespaced(env.client());
    let listed = core.list(&Default::default()).await.unwrap();
    let same = listed
        .items
        .iter()
        .find(|e| e.metadata.uid == found.metadata.uid)
        .expect("the events.k8s.io Event is a core Event");
    assert_eq!(same.message.as_deref(), Some("scaled to 1"));
    assert_eq!(same.reason.as_deref(), Some("Scaled"));
    assert_eq!(same.involved_object.name.as_deref(), Some("m"));
    assert_eq!(
        same.reporting_component.as_deref(),
        Some("memcached-controller")
    );

    let missing = tokio::time::timeout(Duration::from_secs(30), async move {
        tokio::spawn(async move {
            env.wait_for_event_within(&mc, "Deleted", Duration::from_millis(50))
                .await
        })
        .await
        .unwrap_err()
    })
    .await
    .unwrap();
    let message = missing.into_panic();
    let message = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("no Event with reason \"Deleted\"") && message.contains("Scaled"),
        "{message}"
    );
}

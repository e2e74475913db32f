//! The audit log (`--audit-log-path`): one JSON line per request in the
//! shape of `audit.k8s.io/v1` `Event` at level `Metadata` — who, what
//! verb on which object, from where, and the response's code — written
//! by a thread of its own so that no request waits on the disk.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::mpsc::{Sender, channel};

use api_core::meta::MicroTime;
use serde_json::{Value, json};

use crate::authn::User;
use crate::request_info::ResourceInfo;

/// Where audit events go.
#[derive(Clone, Debug)]
pub struct AuditLog {
    lines: Sender<Vec<u8>>,
}

/// What a request was, for its audit event.
pub(crate) struct AuditRecord<'a> {
    pub received: MicroTime,
    pub user: Option<&'a User>,
    pub verb: &'a str,
    pub uri: &'a str,
    /// What a resource request names (`None` for other requests).
    pub resource: Option<&'a ResourceInfo>,
    pub source_ip: Option<String>,
    pub user_agent: &'a str,
    pub code: u16,
    /// Set for a long-running request (a watch) logged when its response
    /// starts.
    pub started_only: bool,
    /// The name of the object a write answered with (a create's name is
    /// not in its URL).
    pub written_name: Option<&'a str>,
}

impl AuditLog {
    /// Appends events to the file at `path` (created 0600 if missing).
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let file = options.open(path)?;
        Ok(Self::to_writer(file))
    }

    /// Writes events to `writer`, one line each, from a thread of its own.
    pub fn to_writer(writer: impl Write + Send + 'static) -> Self {
        let (lines, receiver) = channel::<Vec<u8>>();
        std::thread::Builder::new()
            .name("audit-log".into())
            .spawn(move || {
                let mut out = BufWriter::new(writer);
                while let Ok(line) = receiver.recv() {
                    let _ = out.write_all(&line);
                    // Flush once nothing else is waiting.
                    for line in receiver.try_iter() {
                        let _ = out.write_all(&line);
                    }
                    let _ = out.flush();
                }
            })
            .map(|_| ())
            .unwrap_or_else(|e| tracing::error!("the audit log cannot start: {e}"));
        AuditLog { lines }
    }

    /// Records one request.
    pub(crate) fn record(&self, record: &AuditRecord<'_>) {
        let mut line = serde_json::to_vec(&event(record)).unwrap_or_default();
        line.push(b'\n');
        let _ = self.lines.send(line);
    }
}

/// The `audit.k8s.io/v1` `Event` of a request.
fn event(r: &AuditRecord<'_>) -> Value {
    let user = match r.user {
        Some(u) => {
            let mut user = json!({"username": u.name, "groups": u.groups});
            if !u.uid.is_empty() {
                user["uid"] = json!(u.uid);
            }
            user
        }
        None => json!({}),
    };
    let mut event = json!({
        "kind": "Event",
        "apiVersion": "audit.k8s.io/v1",
        "level": "Metadata",
        "auditID": api_core::registry::new_uid(),
        "stage": if r.started_only { "ResponseStarted" } else { "ResponseComplete" },
        "requestURI": r.uri,
        "verb": r.verb,
        "user": user,
        "sourceIPs": r.source_ip.iter().collect::<Vec<_>>(),
        "userAgent": r.user_agent,
        "responseStatus": {"metadata": {}, "code": r.code},
        "requestReceivedTimestamp": r.received,
        "stageTimestamp": MicroTime::now(),
    });
    if let Some(mut object) = r.resource.map(object_ref) {
        if let (None, Some(name)) = (object.get("name"), r.written_name) {
            object["name"] = json!(name);
        }
        event["objectRef"] = object;
    }
    event
}

/// `objectRef` of a resource request: resource, namespace, name, API
/// group and version, subresource.
fn object_ref(r: &ResourceInfo) -> Value {
    let namespace = Some(&r.namespace).filter(|ns| !ns.is_empty());
    let mut object = json!({"resource": r.resource, "apiVersion": r.version});
    if !r.group.is_empty() {
        object["apiGroup"] = json!(r.group);
    }
    if let Some(ns) = namespace {
        object["namespace"] = json!(ns);
    }
    if let Some(name) = &r.name {
        object["name"] = json!(name);
    }
    if let Some(sub) = &r.subresource {
        object["subresource"] = json!(sub);
    }
    object
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_refs() {
        let r = |p: &str| {
            let segments: Vec<&str> = p.trim_matches('/').split('/').collect();
            crate::request_info::resource_info(&segments).map(|r| object_ref(&r))
        };
        assert_eq!(
            r("/apis/example.com/v1/namespaces/demo/widgets/w/status"),
            Some(
                json!({"resource": "widgets", "apiVersion": "v1", "apiGroup": "example.com",
                        "namespace": "demo", "name": "w", "subresource": "status"})
            )
        );
        assert_eq!(
            r("/apis/example.com/v1/widgets"),
            Some(json!({"resource": "widgets", "apiVersion": "v1", "apiGroup": "example.com"}))
        );
        // A namespace is in itself, as the apiserver's RequestInfo has it.
        assert_eq!(
            r("/api/v1/namespaces/demo"),
            Some(
                json!({"resource": "namespaces", "apiVersion": "v1", "namespace": "demo", "name": "demo"})
            )
        );
        assert_eq!(r("/healthz"), None);
    }

    #[test]
    fn events_are_lines_of_json() {
        #[derive(Clone, Default)]
        struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out = Shared::default();
        let log = AuditLog::to_writer(out.clone());
        let user = User::new("bob", &["devs"]);
        let segments = [
            "apis",
            "example.com",
            "v1",
            "namespaces",
            "demo",
            "widgets",
            "w",
        ];
        for code in [200, 403] {
            log.record(&AuditRecord {
                received: MicroTime::now(),
                user: Some(&user),
                verb: "get",
                uri: "/apis/example.com/v1/namespaces/demo/widgets/w",
                resource: crate::request_info::resource_info(&segments).as_ref(),
                source_ip: Some("127.0.0.1".into()),
                user_agent: "kubectl/v1.37.1",
                code,
                started_only: false,
                written_name: None,
            });
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let text = loop {
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            if text.lines().count() == 2 || std::time::Instant::now() > deadline {
                break text;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        let events: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(events.len(), 2, "{text}");
        let e = &events[1];
        assert_eq!(e["kind"], "Event");
        assert_eq!(e["apiVersion"], "audit.k8s.io/v1");
        assert_eq!(e["level"], "Metadata");
        assert_eq!(e["stage"], "ResponseComplete");
        assert_eq!(e["user"], json!({"username": "bob", "groups": ["devs"]}));
        assert_eq!(e["objectRef"]["name"], "w");
        assert_eq!(e["responseStatus"]["code"], 403);
        assert_eq!(e["sourceIPs"], json!(["127.0.0.1"]));
        assert_ne!(events[0]["auditID"], events[1]["auditID"]);
    }
}

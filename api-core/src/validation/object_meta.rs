//! ObjectMeta validation (placeholder, being written).

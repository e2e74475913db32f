//! Label selectors (placeholder, being written).

//! Shared fixtures for searchlab's cross-crate tests.

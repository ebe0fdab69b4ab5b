//! Helpers shared by the example apps.

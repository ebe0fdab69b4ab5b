//! Writes whose answer is lost report what happened. An SDK interceptor ([`lose::Losses`])
//! replaces the first answers of one operation with an HTTP 500 after DynamoDB Local has
//! applied (or refused) the request, so the write was applied but its caller does not
//! know. Each test runs twice: with the SDK's retries off and one answer lost, and with the
//! SDK's default retries and three answers lost (all of the SDK's attempts).
//!
//! The answer is the true outcome, or `Error::OutcomeUnknown` where the library cannot
//! tell; the stored state is right, and nothing is applied twice.

pub(crate) mod lose;
mod single;
mod transactions;

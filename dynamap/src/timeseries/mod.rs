//! Time series: several events per timestamp in one row, and tables rolled by period.
//!
//! - [`rows`]: multi-event rows, where the events sharing one (partition, timestamp) key are
//!   stored in one item as a list of event ids and one id-to-value map per field.
//! - [`rolling`]: tables rolled by event period and write month, created on demand, queried
//!   across, and dropped by write month.

pub mod rolling;
pub mod rows;

//! A write budget paces a job.

use dynamap::maintain::Budget;

use super::{Ticket, old_desk};

/// A write budget holds the job back: 30 rewrites of a unit or more each, at 10 units a
/// second, cannot finish before the units beyond the first two seconds' worth are paid
/// (the first second's are there up front; another second's allows for the running
/// estimate of a write's cost); without a budget the same job takes about a second here.
#[tokio::test]
async fn a_write_budget_paces_the_job() {
    let db = old_desk("maintain_budget", 30, 0).await;
    let started = std::time::Instant::now();
    let report = db
        .maintain::<Ticket>("budget")
        .rekey()
        .segments(4)
        .budget(Budget::UNLIMITED.writes(10.0))
        .send()
        .await
        .expect("job");
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(report.rekeyed, 30);
    assert!(
        report.write_units >= 60.0,
        "DynamoDB reported the units: {report:?}"
    );
    let floor = (report.write_units - 20.0) / 10.0;
    assert!(
        elapsed >= floor,
        "{elapsed}s for {} units: the budget held",
        report.write_units
    );
}

//! Model (b), versioned writes: every interleaving of `modify`, `create` and `delete`
//! calls with lost requests and responses that the SDK retries as is.

use dynamap_model::check;
use dynamap_model::version::{AfterLost, Op, Scenario};

const LIMIT: usize = 2_000_000;

fn increments(
    clients: usize,
    calls: u8,
    losses: u8,
    after_lost: AfterLost,
    stamped: bool,
) -> Scenario {
    Scenario {
        clients: vec![(vec![Op::Increment], calls); clients],
        losses,
        stamped,
        after_lost,
        version_guard: true,
        exists: true,
    }
}

fn holds(name: &str, s: &Scenario, floor: usize) {
    check::holds(name, s, LIMIT, floor);
}

fn finds(name: &str, s: &Scenario, violation: &str) {
    check::finds(name, s, LIMIT, violation);
}

/// Three clients each incrementing twice, two lost requests or responses: no lost update,
/// nothing applied twice, every `Ok` written, with either designed answer after a loss.
#[test]
fn increments_are_exact_with_the_designed_answers() {
    holds(
        "increments, exact item, stamped",
        &increments(3, 2, 2, AfterLost::ExactItem, true),
        100_000,
    );
    holds(
        "increments, unknown",
        &increments(3, 2, 2, AfterLost::Unknown, false),
        60_000,
    );
}

/// Before: a save whose response is lost is retried by the SDK, fails on its own write,
/// and `modify` redoes it from a fresh read: one call, two increments.
#[test]
fn a_lost_response_made_modify_increment_twice() {
    finds(
        "increment, trust the retry",
        &increments(1, 1, 1, AfterLost::Trust, true),
        "one call applied twice",
    );
}

/// Before: a create whose response is lost fails its retry on its own item.
#[test]
fn a_lost_response_made_create_fail() {
    let s = Scenario {
        clients: vec![(vec![Op::Create], 1), (vec![Op::Create], 1)],
        losses: 1,
        stamped: true,
        after_lost: AfterLost::Trust,
        version_guard: true,
        exists: false,
    };
    finds(
        "create, trust the retry",
        &s,
        "condition failed after the call's own write",
    );
    let s = Scenario {
        after_lost: AfterLost::ExactItem,
        ..s
    };
    holds("create, exact item", &s, 20);
}

/// A known limit of any request the SDK resends as is: a create whose response is lost, a
/// delete by another client, and the SDK's retry creates the item again. One call applied
/// twice, with either designed answer (a transaction's token would make the resend a no-op).
#[test]
fn a_retried_create_applies_again_after_a_delete() {
    let s = Scenario {
        clients: vec![(vec![Op::Delete], 1), (vec![Op::Create, Op::Delete], 2)],
        losses: 1,
        stamped: true,
        after_lost: AfterLost::ExactItem,
        version_guard: true,
        exists: true,
    };
    finds(
        "create, delete, retried create",
        &s,
        "one call applied twice",
    );
}

/// "The stored item is exactly the one this call wrote" is not proof of the write when
/// two writers can store equal items: two increments from one version write the same
/// item, and the loser, whose request was lost, is told `Ok`. A per-write stamp (an
/// `updated_at` that differs) or `OutcomeUnknown` are exact.
#[test]
fn an_equal_item_is_not_proof_of_the_write() {
    finds(
        "increments, exact item, no stamp",
        &increments(2, 1, 1, AfterLost::ExactItem, false),
        "success without the write",
    );
}

/// Without the version condition two read-modify-writes lose one of the increments.
#[test]
fn the_version_condition_is_needed() {
    let s = Scenario {
        version_guard: false,
        ..increments(2, 1, 0, AfterLost::ExactItem, true)
    };
    finds(
        "no version condition",
        &s,
        "lost update: a save replaced an item it did not read",
    );
}

/// A known limit of versions: a delete and a re-create restart the version at 1, so a
/// save that read the deleted item at version 1 replaces the new one.
#[test]
fn a_recreated_item_restarts_its_version() {
    let s = Scenario {
        clients: vec![
            (vec![Op::Increment], 1),
            (vec![Op::Delete], 1),
            (vec![Op::Create], 1),
        ],
        losses: 0,
        stamped: true,
        after_lost: AfterLost::ExactItem,
        version_guard: true,
        exists: true,
    };
    finds(
        "delete and re-create",
        &s,
        "lost update: a save replaced an item it did not read",
    );
}

//! Model (a), the lookup-sync protocol: every interleaving of small client programs, with
//! crashes and lost requests or responses. The designed behaviour breaks no invariant; the
//! old behaviours and removed guards each lead to the violation they allow.

use dynamap_model::check::{self, Outcome};
use dynamap_model::lookup::{Creates, DEFAULT, Decide, Lost, Mode, Op, Scenario, Switches, Table};

const A: u8 = 0;
const B: u8 = 1;
const LIMIT: usize = 3_000_000;

fn put(owner: u8, handle: u8) -> Op {
    Op::Put {
        owner,
        handle,
        flag: true,
        mode: Mode::Overwrite,
        cond: false,
    }
}

fn create(owner: u8, handle: u8) -> Op {
    Op::Put {
        owner,
        handle,
        flag: true,
        mode: Mode::Create,
        cond: false,
    }
}

fn scenario(clients: Vec<(Vec<Op>, u8)>, table: Table, losses: u8, switches: Switches) -> Scenario {
    Scenario {
        clients,
        table,
        losses,
        rounds: 3,
        resends: 1,
        crashes: true,
        switches,
    }
}

fn holds(name: &str, scenario: &Scenario, floor: usize) -> Outcome {
    check::holds(name, scenario, LIMIT, floor)
}

fn finds(name: &str, scenario: &Scenario, violation: &str) {
    check::finds(name, scenario, LIMIT, violation);
}

/// Three clients (one making two calls, two one call), each call any of a menu of every
/// kind on two owners and three values, two lost requests or responses, crashes anywhere:
/// uniqueness, no orphan or missing lookup, and every answer true.
#[test]
fn three_clients_keep_every_invariant() {
    let cond = |op: Op| match op {
        Op::Put {
            owner,
            handle,
            flag,
            mode,
            ..
        } => Op::Put {
            owner,
            handle,
            flag,
            mode,
            cond: true,
        },
        other => other,
    };
    let menu = vec![
        put(A, 1),
        put(B, 1),
        create(A, 2),
        cond(Op::Put {
            owner: A,
            handle: 1,
            flag: true,
            mode: Mode::Replace,
            cond: false,
        }),
        Op::Update {
            owner: B,
            handle: Some(2),
            flag: false,
            must_exist: true,
            cond: false,
        },
        Op::Update {
            owner: A,
            handle: None,
            flag: false,
            must_exist: false,
            cond: false,
        },
        Op::Update {
            owner: B,
            handle: Some(DEFAULT),
            flag: false,
            must_exist: false,
            cond: false,
        },
        Op::Delete {
            owner: A,
            must_exist: true,
            cond: false,
        },
    ];
    let clients = vec![(menu.clone(), 2), (menu.clone(), 1), (menu, 1)];
    let s = scenario(clients, Table::EMPTY.with(A, 1, true), 2, Switches::FIXED);
    holds("three clients, four calls", &s, 400_000);
}

/// Two clients making three and two calls, with the caller's conditions, on one owner
/// moving between values against a rival owner: every answer true after any
/// interleaving, crash, or two lost answers.
#[test]
fn two_clients_five_calls_keep_every_invariant() {
    let menu = vec![
        put(A, 1),
        put(A, 2),
        put(B, 2),
        Op::Put {
            owner: A,
            handle: 1,
            flag: true,
            mode: Mode::Replace,
            cond: true,
        },
        Op::Update {
            owner: A,
            handle: Some(2),
            flag: false,
            must_exist: true,
            cond: true,
        },
        Op::Delete {
            owner: A,
            must_exist: true,
            cond: true,
        },
    ];
    let clients = vec![(menu.clone(), 3), (menu, 2)];
    let s = scenario(clients, Table::EMPTY.with(A, 1, true), 2, Switches::FIXED);
    holds("two clients, five calls", &s, 150_000);
}

/// A→B→A: a caller's replace is cancelled by a concurrent move of its owner, which moves
/// back before the re-read; the re-read sees "unchanged" and blames the caller's condition,
/// which held throughout. Deciding from what DynamoDB evaluated (`ALL_OLD`) is right.
#[test]
fn a_b_a_fools_the_reread_but_not_all_old() {
    let mover = (vec![put(A, 2), put(A, 1)], 2);
    let replace = Op::Put {
        owner: A,
        handle: 1,
        flag: true,
        mode: Mode::Replace,
        cond: true,
    };
    let table = Table::EMPTY.with(A, 1, true);
    let old = Switches {
        decide: Decide::Reread,
        ..Switches::FIXED
    };
    let s = scenario(vec![mover.clone(), (vec![replace], 1)], table, 0, old);
    finds(
        "A→B→A, re-read",
        &s,
        "condition failed although it held throughout the call",
    );
    let s = scenario(vec![mover, (vec![replace], 1)], table, 0, Switches::FIXED);
    holds("A→B→A, ALL_OLD", &s, 100);
}

/// A create whose response is lost: a new round reads its own owner and answers
/// `ConditionalCheckFailed`; a resend with the same token gets the first outcome.
#[test]
fn lost_create_response_needs_the_same_token() {
    let old = Switches {
        lost: Lost::NewRound,
        ..Switches::FIXED
    };
    let clients = vec![(vec![create(A, 1)], 1)];
    let s = scenario(clients.clone(), Table::EMPTY, 1, old);
    finds(
        "lost create, new round",
        &s,
        "condition failed after the call's own write",
    );
    let s = scenario(clients, Table::EMPTY, 2, Switches::FIXED);
    holds("lost create, same token", &s, 10);
}

/// A put whose response is lost while another client moves the owner away and a third
/// takes the value: a new round reports the caller's own lookup as taken.
#[test]
fn lost_put_response_reports_own_lookup_taken_without_the_token() {
    let clients = vec![
        (vec![put(A, 1)], 1),
        (vec![put(A, 2)], 1),
        (vec![put(B, 1)], 1),
    ];
    let old = Switches {
        lost: Lost::NewRound,
        ..Switches::FIXED
    };
    let s = scenario(clients.clone(), Table::EMPTY, 1, old);
    finds(
        "lost put, new round",
        &s,
        "lookup taken after the call's own write",
    );
    let s = scenario(clients, Table::EMPTY, 1, Switches::FIXED);
    holds("lost put, same token", &s, 500);
}

/// `update().create_if_missing()` that sets no lookup field, as a plain UpdateItem, creates
/// an owner without its lookup item, and a later `create` of another owner with the same
/// value succeeds: two owners hold one value.
#[test]
fn create_if_missing_without_lookups_breaks_uniqueness() {
    let upsert = Op::Update {
        owner: A,
        handle: None,
        flag: true,
        must_exist: false,
        cond: false,
    };
    let clients = vec![(vec![upsert], 1), (vec![create(B, DEFAULT)], 1)];
    let old = Switches {
        creates: Creates::PlainUpdate,
        ..Switches::FIXED
    };
    let s = scenario(clients.clone(), Table::EMPTY, 0, old);
    finds(
        "create_if_missing, plain",
        &s,
        "missing lookup item: an owner without its lookup",
    );
    let unchecked = Switches {
        check_missing: false,
        ..old
    };
    let s = scenario(clients.clone(), Table::EMPTY, 0, unchecked);
    finds(
        "create_if_missing, plain",
        &s,
        "uniqueness: two owners hold one lookup value",
    );
    let with_lookups = Switches {
        creates: Creates::WithLookups,
        ..Switches::FIXED
    };
    let s = scenario(clients.clone(), Table::EMPTY, 1, with_lookups);
    holds("create_if_missing, default lookup written", &s, 50);
    // As built: the update must set the lookup field, and then moves it like any update.
    let setting = Op::Update {
        owner: A,
        handle: Some(DEFAULT),
        flag: true,
        must_exist: false,
        cond: false,
    };
    let clients = vec![(vec![upsert, setting], 2), (vec![create(B, DEFAULT)], 1)];
    let s = scenario(clients, Table::EMPTY, 1, Switches::FIXED);
    holds("create_if_missing, refused or setting the lookup", &s, 50);
}

/// Without the owner's guard a put releases a lookup its owner no longer records, or keeps
/// one its owner left; without "free or mine" two owners take one value.
#[test]
fn each_guard_is_needed() {
    let clients = vec![
        (vec![put(A, 1), put(A, 2)], 2),
        (vec![put(A, 2), put(A, 0)], 2),
    ];
    let no_owner_guard = Switches {
        owner_guard: false,
        ..Switches::FIXED
    };
    let s = scenario(clients, Table::EMPTY, 0, no_owner_guard);
    finds(
        "no owner guard",
        &s,
        "orphaned lookup item: its owner does not record it",
    );
    let clients = vec![(vec![put(A, 1)], 1), (vec![put(B, 1)], 1)];
    let no_lookup_guard = Switches {
        lookup_guard: false,
        ..Switches::FIXED
    };
    let s = scenario(clients, Table::EMPTY, 0, no_lookup_guard);
    finds(
        "no lookup guard",
        &s,
        "uniqueness: two owners hold one lookup value",
    );
}

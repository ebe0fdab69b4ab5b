//! Model (b): versioned writes of one item without lookups: `db.modify` (read, change,
//! `save` on condition of the version read: `ops/modify.rs`), `create`, and a plain
//! `delete`, each one single-item request that the SDK retries as is after a lost request
//! or response.
//!
//! The item is a counter: every modify adds one. The version condition is
//! `write/condition.rs` `version_condition` (`#v = :expected`), the item written is
//! `write/item.rs` `versioned_item` (version one up); `create` conditions on
//! `attribute_not_exists(pk)` (`put_condition`, `PutMode::Create`).

use crate::check::Model;

/// At most this many clients.
pub const MAX_CLIENTS: usize = 3;
/// Attempts the SDK makes of one request (its standard retry mode: 3).
pub const SDK_ATTEMPTS: u8 = 2;
/// Rounds of `modify`'s loop (`RetryPolicy::default()`'s attempts in the code).
pub const ROUNDS: u8 = 3;

/// The stored item.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Item {
    /// The version attribute.
    pub version: u8,
    /// The counter.
    pub count: u8,
    /// What makes two writes' items differ besides their values: the automatic
    /// `updated_at` timestamp, when the entity has one (the writing call's number here).
    pub stamp: u8,
    /// Ghost: which write stored it (never read by a condition).
    pub write: u8,
}

/// A client's call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// `db.modify(key, |c| c.count += 1)`.
    Increment,
    /// `db.create(&counter)` at count 0 (stored at version 1).
    Create,
    /// `db.delete(key)`, unconditional.
    Delete,
}

/// What a call does when its request's answer was lost and the SDK's retry of the same
/// request fails its condition (possibly because of the lost attempt's own write).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AfterLost {
    /// Before: the retry's failure is the answer (`VersionConflict`, which `modify` takes
    /// for a lost race and redoes from a fresh read; `ConditionalCheckFailed` for a
    /// create), and a request whose every attempt was lost is a retryable service error,
    /// which `modify` redoes too.
    Trust,
    /// The retry asks `ALL_OLD`: the stored item exactly the one this call wrote means it
    /// succeeded; anything else, and every attempt lost, is `OutcomeUnknown`.
    ExactItem,
    /// Every condition failure after a lost attempt, and every attempt lost, is
    /// `OutcomeUnknown`.
    Unknown,
}

/// Where a client is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pc {
    /// Between calls.
    Idle,
    /// About to read the item (`modify`'s consistent GetItem).
    Read,
    /// About to send an attempt of its write.
    Send,
    /// No more calls.
    Stopped,
}

/// One client.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Client {
    /// Where it is.
    pub pc: Pc,
    /// Calls left.
    pub budget: u8,
    /// The call in progress.
    pub op: Option<Op>,
    /// What `modify` read.
    pub read: Option<Item>,
    /// SDK attempts made of the current request.
    pub attempts: u8,
    /// Rounds of `modify` made.
    pub rounds: u8,
    /// An attempt of the current request had its request or response lost.
    pub lost: bool,
    /// Ghost: times this call's write was applied.
    pub applied: u8,
}

/// Everything at one moment.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// The item.
    pub item: Option<Item>,
    /// The clients.
    pub clients: [Client; MAX_CLIENTS],
    /// Requests or responses that may still be lost.
    pub losses: u8,
    /// Ghost: writes applied so far (numbers each write).
    pub writes: u8,
    /// The first wrong answer or write.
    pub bad: Option<&'static str>,
}

/// The bounds and behaviours of one check.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Each client's menu and number of calls.
    pub clients: Vec<(Vec<Op>, u8)>,
    /// Requests or responses lost in the whole run.
    pub losses: u8,
    /// Whether items carry a stamp of their writer (an `updated_at`).
    pub stamped: bool,
    /// After a lost answer.
    pub after_lost: AfterLost,
    /// The version condition on a save (off: a removed guard).
    pub version_guard: bool,
    /// Whether the item exists at the start (version 1, count 0).
    pub exists: bool,
}

impl Model for Scenario {
    type State = State;
    type Step = (usize, &'static str);

    fn init(&self) -> Vec<State> {
        let stopped = Client {
            pc: Pc::Stopped,
            budget: 0,
            op: None,
            read: None,
            attempts: 0,
            rounds: 0,
            lost: false,
            applied: 0,
        };
        let mut clients = [stopped; MAX_CLIENTS];
        for (c, (_, budget)) in clients.iter_mut().zip(&self.clients) {
            c.pc = Pc::Idle;
            c.budget = *budget;
        }
        let item = Item {
            version: 1,
            count: 0,
            stamp: 0,
            write: 0,
        };
        vec![State {
            item: self.exists.then_some(item),
            clients,
            losses: self.losses,
            writes: 0,
            bad: None,
        }]
    }

    fn next(&self, s: &State, out: &mut Vec<((usize, &'static str), State)>) {
        if s.bad.is_some() {
            return;
        }
        for i in 0..self.clients.len() {
            let c = s.clients[i];
            match c.pc {
                Pc::Idle if c.budget > 0 => {
                    for &op in &self.clients[i].0 {
                        let mut n = s.clone();
                        let nc = &mut n.clients[i];
                        nc.budget -= 1;
                        nc.op = Some(op);
                        nc.rounds = 0;
                        nc.pc = if op == Op::Increment {
                            Pc::Read
                        } else {
                            Pc::Send
                        };
                        out.push(((i, "call"), n));
                    }
                }
                Pc::Read => {
                    // `ops/modify.rs` `try_modify_with`: a consistent read; no item, nothing
                    // to modify (`Ok(None)`).
                    let mut n = s.clone();
                    match s.item {
                        None => out.push(((i, finish(&mut n, i, Answer::NoItem)), n)),
                        Some(item) => {
                            let nc = &mut n.clients[i];
                            nc.read = Some(item);
                            nc.attempts = 0;
                            nc.lost = false;
                            nc.pc = Pc::Send;
                            out.push(((i, "read"), n));
                        }
                    }
                }
                Pc::Send => self.send(s, i, out),
                Pc::Idle | Pc::Stopped => {}
            }
        }
    }

    fn violation(&self, s: &State) -> Option<String> {
        s.bad.map(str::to_owned)
    }
}

/// A call's answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Answer {
    Ok,
    NoItem,
    ConditionFailed,
    OutcomeUnknown,
}

/// Ends client `i`'s call with `answer`, checked against what it did.
fn finish(n: &mut State, i: usize, answer: Answer) -> &'static str {
    let c = n.clients[i];
    let wrong = match answer {
        Answer::Ok if c.applied == 0 => Some("success without the write"),
        Answer::ConditionFailed if c.applied > 0 => {
            Some("condition failed after the call's own write")
        }
        _ => None,
    };
    if n.bad.is_none() {
        n.bad = wrong;
    }
    let c = &mut n.clients[i];
    *c = Client {
        pc: if c.budget > 0 { Pc::Idle } else { Pc::Stopped },
        budget: c.budget,
        op: None,
        read: None,
        attempts: 0,
        rounds: 0,
        lost: false,
        applied: 0,
    };
    match answer {
        Answer::Ok => "answer Ok",
        Answer::NoItem => "answer Ok(None)",
        Answer::ConditionFailed => "answer VersionConflict/ConditionalCheckFailed",
        Answer::OutcomeUnknown => "answer OutcomeUnknown",
    }
}

impl Scenario {
    /// The item client `i`'s write stores, and whether its condition holds on `now`.
    fn write(&self, s: &State, i: usize) -> (Option<Item>, bool) {
        let c = s.clients[i];
        let stamp = if self.stamped { i as u8 + 1 } else { 0 };
        let write = s.writes + 1;
        match c.op {
            Some(Op::Increment) => {
                let read = c.read.unwrap_or(Item {
                    version: 0,
                    count: 0,
                    stamp: 0,
                    write: 0,
                });
                // `versioned_item`: the version one past the one read; the condition
                // `version_condition`: the stored version is the one read.
                let holds =
                    !self.version_guard || s.item.is_some_and(|x| x.version == read.version);
                let item = Item {
                    version: read.version + 1,
                    count: read.count + 1,
                    stamp,
                    write,
                };
                (Some(item), holds)
            }
            Some(Op::Create) => {
                let item = Item {
                    version: 1,
                    count: 0,
                    stamp,
                    write,
                };
                (Some(item), s.item.is_none())
            }
            Some(Op::Delete) | None => (None, true),
        }
    }

    /// One attempt of the call's request (`ops/put.rs` `Put::send` PutItem, `ops/delete.rs`
    /// DeleteItem; `write/answer.rs` `conditional_answer`), delivered or lost.
    fn send(&self, s: &State, i: usize, out: &mut Vec<((usize, &'static str), State)>) {
        let (item, holds) = self.write(s, i);
        let op = s.clients[i].op;
        let mut applied = s.clone();
        if holds {
            if op == Some(Op::Increment) {
                let read = s.clients[i].read.map(|r| r.write);
                if s.item.map(|x| x.write) != read && applied.bad.is_none() {
                    applied.bad = Some("lost update: a save replaced an item it did not read");
                }
            }
            applied.item = item;
            applied.writes += 1;
            applied.clients[i].applied += 1;
            if applied.clients[i].applied > 1 && applied.bad.is_none() {
                applied.bad = Some("one call applied twice");
            }
        }
        // Delivered.
        let mut n = applied.clone();
        let label = if holds {
            finish(&mut n, i, Answer::Ok)
        } else {
            self.failed(&mut n, i, item)
        };
        out.push(((i, label), n));
        if s.losses > 0 {
            let mut n = applied;
            n.losses -= 1;
            self.lost(&mut n, i);
            out.push(((i, "response lost"), n));
            if holds {
                let mut n = s.clone();
                n.losses -= 1;
                self.lost(&mut n, i);
                out.push(((i, "request lost"), n));
            }
        }
    }

    /// The attempt's condition failed.
    fn failed(&self, n: &mut State, i: usize, mine: Option<Item>) -> &'static str {
        let c = n.clients[i];
        if c.lost && self.after_lost != AfterLost::Trust {
            // `ALL_OLD`: the stored item as the failed condition saw it.
            let exact = self.after_lost == AfterLost::ExactItem && strip(n.item) == strip(mine);
            return finish(
                n,
                i,
                if exact {
                    Answer::Ok
                } else {
                    Answer::OutcomeUnknown
                },
            );
        }
        self.redo_or(n, i, Answer::ConditionFailed)
    }

    /// `modify` takes a version conflict (and a retryable error) for a lost race and
    /// redoes the call from a fresh read, up to its rounds; other calls answer `answer`.
    fn redo_or(&self, n: &mut State, i: usize, answer: Answer) -> &'static str {
        let c = &mut n.clients[i];
        if c.op == Some(Op::Increment) && c.rounds + 1 < ROUNDS {
            c.rounds += 1;
            c.pc = Pc::Read;
            return "redo from a fresh read";
        }
        finish(n, i, answer)
    }

    /// The attempt's request or response was lost: the SDK sends the same request again,
    /// until its attempts run out.
    fn lost(&self, n: &mut State, i: usize) {
        let c = &mut n.clients[i];
        c.lost = true;
        c.attempts += 1;
        if c.attempts < SDK_ATTEMPTS {
            return;
        }
        match self.after_lost {
            AfterLost::Trust => {
                self.redo_or(n, i, Answer::OutcomeUnknown);
            }
            AfterLost::ExactItem | AfterLost::Unknown => {
                finish(n, i, Answer::OutcomeUnknown);
            }
        }
    }
}

/// An item as a condition or `ALL_OLD` sees it: without the ghost.
fn strip(item: Option<Item>) -> Option<(u8, u8, u8)> {
    item.map(|x| (x.version, x.count, x.stamp))
}

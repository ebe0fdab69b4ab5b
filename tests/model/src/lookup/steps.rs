//! The steps of one client: each is one request to DynamoDB (or the local decision right
//! after its answer), and cites the code it stands for.

use super::{
    Answer, Creates, DEFAULT, Decide, Lost, Mode, Op, OwnerItem, Pc, Scenario, State, Switches,
    Table,
};

type Out = Vec<((usize, &'static str, Option<Op>), State)>;

/// Why DynamoDB cancelled a transaction (its `CancellationReasons`).
#[derive(Clone, Copy, Debug)]
struct Cancel {
    /// The owner's action failed its condition.
    owner_failed: bool,
    /// A lookup put failed "free or mine".
    lookup_failed: bool,
    /// The owner item as evaluated (returned with `ALL_OLD` when its condition failed).
    old: Option<OwnerItem>,
}

/// The lookup value a call puts, if any.
pub(super) fn wanted(op: Op) -> Option<u8> {
    match op {
        Op::Put { handle, .. } => Some(handle),
        Op::Update {
            handle: Some(h), ..
        } => Some(h),
        Op::Update {
            handle: None,
            must_exist: false,
            ..
        } => Some(DEFAULT),
        _ => None,
    }
}

/// A call sent as one plain UpdateItem, without lookup maintenance: an update that sets no
/// lookup field (`ops/update/plan.rs` `Plan::send`, `self.lookups.is_empty()`).
fn plain(op: Op, sw: &Switches) -> bool {
    matches!(op, Op::Update { handle: None, must_exist, .. }
        if must_exist || sw.creates == Creates::PlainUpdate)
}

/// Whether the owner's action carries a condition of the caller's, so that its failure can
/// be the caller's answer (`ops/sync.rs` `put_round`/`update_round`/`delete_round`, `decisive`).
fn decisive(op: Op) -> bool {
    match op {
        Op::Put { mode, cond, .. } => mode != Mode::Overwrite || cond,
        Op::Update {
            must_exist, cond, ..
        }
        | Op::Delete {
            must_exist, cond, ..
        } => must_exist || cond,
    }
}

/// The existence the caller's own condition requires of the owner, if any: an evaluated
/// item that breaks it is the caller's failure whatever the guard did (`ops/sync.rs`
/// `required_existence`, `failed_by_caller`).
fn required_existence(op: Op) -> Option<bool> {
    match op {
        Op::Put {
            mode: Mode::Create, ..
        } => Some(false),
        Op::Put {
            mode: Mode::Replace,
            ..
        }
        | Op::Update {
            must_exist: true, ..
        }
        | Op::Delete {
            must_exist: true, ..
        } => Some(true),
        _ => None,
    }
}

/// The guard "the owner still records exactly what was read, or still does not exist"
/// (`ops/sync.rs` `guard`).
fn guard_holds(read: Option<Option<u8>>, item: Option<OwnerItem>) -> bool {
    match read {
        None => item.is_none(),
        Some(recorded) => item.is_some_and(|i| i.recorded == recorded),
    }
}

/// One TransactWriteItems of a round, evaluated atomically: `Ok` with the table after it,
/// or the cancellation. Built by `ops/sync.rs` `put_actions` (put), `update_round`
/// (update), `delete_actions` (delete); the same builders serve `transact/synced.rs`.
fn transact(op: Op, read: Option<Option<u8>>, t: &Table, sw: &Switches) -> Result<Table, Cancel> {
    let o = op.owner();
    let item = t.owners[o as usize];
    let guard = !sw.owner_guard || guard_holds(read, item);
    // `write/lookup_items.rs` `free_or_owned_by`: absent, or this owner's.
    let mine = |v: u8| t.lookups[v as usize].is_none_or(|x| x == o);
    let owner_ok = op.condition_holds(t) && guard;
    let mut new = *t;
    // (lookup put, lookup released) of the transaction.
    let (put, release) = match op {
        Op::Put { handle, flag, .. }
        | Op::Update {
            handle: Some(handle),
            flag,
            ..
        } => {
            new.owners[o as usize] = Some(OwnerItem {
                handle,
                recorded: Some(handle),
                flag,
            });
            // `put_actions`: release each recorded lookup whose key changed;
            // `update_round`: release each moved lookup's old key.
            (Some(handle), read.flatten().filter(|r| *r != handle))
        }
        Op::Update {
            handle: None, flag, ..
        } => {
            // The fix of point 3: an owner this update creates gets its lookup item.
            new.owners[o as usize] = Some(match item {
                Some(i) => OwnerItem { flag, ..i },
                None => OwnerItem {
                    handle: DEFAULT,
                    recorded: Some(DEFAULT),
                    flag,
                },
            });
            (read.is_none().then_some(DEFAULT), None)
        }
        Op::Delete { .. } => {
            new.owners[o as usize] = None;
            (None, read.flatten())
        }
    };
    let lookup_ok = put.is_none_or(|v| !sw.lookup_guard || mine(v));
    let release_ok = release.is_none_or(mine);
    if !(owner_ok && lookup_ok && release_ok) {
        return Err(Cancel {
            owner_failed: !owner_ok,
            lookup_failed: !lookup_ok,
            old: item,
        });
    }
    if let Some(v) = put {
        new.lookups[v as usize] = Some(o);
    }
    if let Some(r) = release {
        new.lookups[r as usize] = None;
    }
    Ok(new)
}

/// A plain UpdateItem on condition of the caller's (`ops/update/plan.rs` `Plan::send`):
/// creates a missing owner without any lookup bookkeeping.
fn update_item(op: Op, t: &Table) -> Option<Table> {
    let Op::Update { flag, .. } = op else {
        return None;
    };
    if !op.condition_holds(t) {
        return None;
    }
    let mut new = *t;
    let o = op.owner() as usize;
    new.owners[o] = Some(match t.owners[o] {
        Some(i) => OwnerItem { flag, ..i },
        None => OwnerItem {
            handle: DEFAULT,
            recorded: None,
            flag,
        },
    });
    Some(new)
}

impl Scenario {
    /// Every step client `i` can take in `s`.
    pub(super) fn client_steps(&self, s: &State, i: usize, out: &mut Out) {
        let c = s.clients[i];
        match c.pc {
            Pc::Idle if c.budget > 0 => {
                for &op in &self.clients[i].0 {
                    let mut n = s.clone();
                    let nc = &mut n.clients[i];
                    nc.budget -= 1;
                    nc.op = Some(op);
                    nc.round = 0;
                    nc.pc = if plain(op, &self.switches) {
                        Pc::Send
                    } else {
                        Pc::Read
                    };
                    let refused = self.switches.creates == Creates::Refused
                        && matches!(
                            op,
                            Op::Update {
                                handle: None,
                                must_exist: false,
                                ..
                            }
                        );
                    let label = if refused {
                        self.answer(&mut n, i, Answer::Refused)
                    } else {
                        "call"
                    };
                    out.push(((i, label, Some(op)), n));
                }
            }
            Pc::Read => self.read(s, i, out),
            Pc::Send | Pc::Resend => self.send(s, i, out),
            Pc::Reread => {
                // Old behaviour: `Canceled::start_over` re-reads (`Owner::recorded`) and
                // calls an unchanged record the caller's failed condition.
                let mut n = s.clone();
                let op = n.clients[i].op;
                let now = op.and_then(|op| n.table.owners[op.owner() as usize]);
                let label = if now.map(|x| x.recorded) == n.clients[i].read {
                    self.answer(&mut n, i, Answer::ConditionFailed)
                } else {
                    self.next_round(&mut n, i)
                };
                out.push(((i, label, None), n));
            }
            Pc::Idle | Pc::Stopped => {}
        }
        if self.crashes && matches!(c.pc, Pc::Read | Pc::Send | Pc::Resend | Pc::Reread) {
            let mut n = s.clone();
            n.clients[i] = super::Client {
                pc: Pc::Stopped,
                budget: 0,
                op: None,
                read: None,
                round: 0,
                resends: 0,
                applied: false,
                cond_false_seen: false,
                taken_seen: false,
            };
            out.push(((i, "crash", None), n));
        }
    }

    /// `ops/sync.rs` `Owner::recorded`: a consistent GetItem of the owner's recorded
    /// lookups, then the round's decisions on what was read (`put_round`: create or
    /// replace refused on the state read; `update_round`/`delete_round`: `must_exist`).
    fn read(&self, s: &State, i: usize, out: &mut Out) {
        let mut n = s.clone();
        let Some(op) = n.clients[i].op else { return };
        let read = n.table.owners[op.owner() as usize].map(|x| x.recorded);
        n.clients[i].read = read;
        let label = match op {
            Op::Put {
                mode: Mode::Create, ..
            } if read.is_some() => self.answer(&mut n, i, Answer::ConditionFailed),
            Op::Put {
                mode: Mode::Replace,
                ..
            } if read.is_none() => self.answer(&mut n, i, Answer::ConditionFailed),
            Op::Update {
                must_exist: true, ..
            }
            | Op::Delete {
                must_exist: true, ..
            } if read.is_none() => self.answer(&mut n, i, Answer::ConditionFailed),
            // `delete_round`: nothing to delete and no condition: done.
            Op::Delete { cond: false, .. } if read.is_none() => {
                n.clients[i].applied = true;
                self.answer(&mut n, i, Answer::Ok)
            }
            _ => {
                // A new round: a new request, with a new token (`write/send.rs`).
                n.clients[i].pc = Pc::Send;
                n.clients[i].resends = self.resends;
                n.table.token_committed[i] = false;
                "read"
            }
        };
        out.push(((i, label, None), n));
    }

    /// `write/send.rs` `send_actions`: one TransactWriteItems (or, for a plain update, one
    /// UpdateItem), its answer delivered, or lost (request or response).
    fn send(&self, s: &State, i: usize, out: &mut Out) {
        let c = s.clients[i];
        let Some(op) = c.op else { return };
        if plain(op, &self.switches) {
            // Lost responses of single-item requests are model (b)'s: delivered here.
            let mut n = s.clone();
            let label = match update_item(op, &n.table) {
                Some(t) => {
                    n.table = t;
                    n.clients[i].applied = true;
                    self.answer(&mut n, i, Answer::Ok)
                }
                None => self.answer(&mut n, i, Answer::ConditionFailed),
            };
            out.push(((i, label, None), n));
            return;
        }
        // A resend with the same token of a transaction that committed: the first outcome,
        // nothing applied again (DynamoDB's idempotency within ten minutes).
        let replayed = c.pc == Pc::Resend && s.table.token_committed[i];
        let outcome = if replayed {
            Ok(s.table)
        } else {
            transact(op, c.read, &s.table, &self.switches)
        };
        let mut sent = s.clone();
        if let Ok(t) = outcome {
            sent.table = t;
            sent.table.token_committed[i] = true;
            sent.clients[i].applied = true;
        }
        // Delivered. A cancellation whose owner action and lookup put both failed is also
        // explored reporting only one of them, in case DynamoDB names fewer than all.
        let reported = match outcome {
            Ok(_) => vec![None],
            Err(c) if c.owner_failed && c.lookup_failed => vec![
                Some(c),
                Some(Cancel {
                    owner_failed: false,
                    ..c
                }),
                Some(Cancel {
                    lookup_failed: false,
                    ..c
                }),
            ],
            Err(c) => vec![Some(c)],
        };
        for cancel in reported {
            let mut n = sent.clone();
            let label = match cancel {
                None => self.answer(&mut n, i, Answer::Ok),
                Some(cancel) => self.canceled(&mut n, i, op, cancel),
            };
            out.push(((i, label, None), n));
        }
        if s.losses > 0 {
            // The response lost (the transaction ran), then, if it ran, the request lost
            // instead (it did not).
            let mut n = sent;
            n.losses -= 1;
            self.lost(&mut n, i);
            out.push(((i, "response lost", None), n));
            if outcome.is_ok() && !replayed {
                let mut n = s.clone();
                n.losses -= 1;
                self.lost(&mut n, i);
                out.push(((i, "request lost", None), n));
            }
        }
    }

    /// After a lost answer: resend with the same token (the fix), or a new round (before).
    fn lost(&self, n: &mut State, i: usize) -> &'static str {
        match self.switches.lost {
            Lost::SameToken if n.clients[i].resends > 0 => {
                n.clients[i].resends -= 1;
                n.clients[i].pc = Pc::Resend;
                "resend with the same token"
            }
            Lost::SameToken => self.answer(n, i, Answer::OutcomeUnknown),
            Lost::NewRound => self.next_round(n, i),
        }
    }

    /// `ops/sync.rs` `Canceled::start_over`: a taken lookup is final; a failed owner action
    /// with a condition of the caller's is its answer when the guard held (decided from
    /// `ALL_OLD`, or before by a re-read); anything else starts over.
    fn canceled(&self, n: &mut State, i: usize, op: Op, cancel: Cancel) -> &'static str {
        if cancel.lookup_failed {
            return self.answer(n, i, Answer::LookupTaken);
        }
        if cancel.owner_failed && decisive(op) {
            return match self.switches.decide {
                Decide::AllOld
                    if guard_holds(n.clients[i].read, cancel.old)
                        || required_existence(op).is_some_and(|e| e != cancel.old.is_some()) =>
                {
                    self.answer(n, i, Answer::ConditionFailed)
                }
                Decide::AllOld => self.next_round(n, i),
                Decide::Reread => {
                    n.clients[i].pc = Pc::Reread;
                    "canceled: owner failed, re-read"
                }
            };
        }
        self.next_round(n, i)
    }

    /// `ops/sync.rs` `in_rounds`: another round, or `Contention` after the last.
    fn next_round(&self, n: &mut State, i: usize) -> &'static str {
        let c = &mut n.clients[i];
        c.round += 1;
        if c.round >= self.rounds {
            return self.answer(n, i, Answer::Contention);
        }
        c.pc = Pc::Read;
        "start over"
    }

    /// Ends the call with `answer`, checking it against what happened.
    fn answer(&self, n: &mut State, i: usize, answer: Answer) -> &'static str {
        let c = n.clients[i];
        let wrong = match answer {
            Answer::Ok if !c.applied => Some("success without the write"),
            Answer::ConditionFailed if c.applied => {
                Some("condition failed after the call's own write")
            }
            Answer::ConditionFailed if !c.cond_false_seen => {
                Some("condition failed although it held throughout the call")
            }
            Answer::LookupTaken if c.applied => Some("lookup taken after the call's own write"),
            Answer::LookupTaken if !c.taken_seen => {
                Some("lookup taken although no other owner held it during the call")
            }
            Answer::Contention if c.applied => Some("contention after the call's own write"),
            _ => None,
        };
        if n.bad.is_none() {
            n.bad = wrong;
        }
        let c = &mut n.clients[i];
        c.pc = if c.budget > 0 { Pc::Idle } else { Pc::Stopped };
        c.op = None;
        c.read = None;
        c.round = 0;
        c.resends = 0;
        c.applied = false;
        c.cond_false_seen = false;
        c.taken_seen = false;
        match answer {
            Answer::Ok => "answer Ok",
            Answer::ConditionFailed => "answer ConditionalCheckFailed",
            Answer::LookupTaken => "answer LookupTaken",
            Answer::Contention => "answer Contention",
            Answer::OutcomeUnknown => "answer OutcomeUnknown",
            Answer::Refused => "refused before sending",
        }
    }
}

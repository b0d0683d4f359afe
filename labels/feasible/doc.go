// Package feasible decides which coverage labels can never hold
// (infeasible) or always hold (trivial), each with a reason, so that
// they are listed but not injected:
//
//   - the value analysis (values.go): an interval analysis of the plan's
//     own arithmetic, fed also by Options.Domains (what the world says of
//     the simulator's queries), judges each label's predicate
//     (ranges.go); designator properties and literal lists (desig.go)
//     let it read cells of designators and loops over constant lists,
//     list shapes (shapes.go) the elements of lists the plan builds
//     (push and pop included, a pop under a while or cond test that says
//     its list is not empty taking an element),
//     lexical bindings (lexical.go) keep each binding's values apart,
//     counters (counters.go), bound to 0 and only incremented, never wrap,
//     small sets of integers (sets.go) say what an interval cannot, and
//     symbols (symbols.go) say which symbols a value may be (the world's
//     too, Options.Domains), judging eq, member and truth, an MCC
//     combination's conjuncts under what the others assume;
//     values per call (precise.go) evaluate a plan function's body
//     under the arguments of the call at hand, and sure lists say which
//     elements a list surely has (assoc, nth, length, (if e ...));
//   - the bounds of a conjunction (conj.go): an MCC combination that
//     bounds one operand by constants from both sides with no number in
//     between ("no number satisfies x <= 500 and x >= 530"); Contradiction
//     serves every front end (the Go enumerator calls it too);
//   - the guard analysis (guards.go): the conditions of the if, when,
//     cond, and and or a label sits in, when they bound its variables
//     against its predicate, local to the label's top-level form (so it
//     also decides labels of plans with loops), with what an (incf X)
//     before the point says of a counter (of one that (setq X 0) resets
//     too, where nothing in between may assign it), the small set a
//     variable holds (sets.go), and predicates that need
//     (fail ...) to return;
//   - earlier clauses (condguard.go): a label in a cond clause's test
//     whose assumptions make an earlier clause's test always true;
//   - loop bounds (loops.go): a counter or list a retry handler or a
//     guarded change keeps below a bound in its binding's scope, and a
//     counter of the elements of a list whose length is bounded through
//     the data (elemcount.go);
//   - the entry (entry.go): with Options.Entry (the pipeline's plan
//     under test, never annotate or labels: SBCL may call any defun), the
//     labels of functions no code that runs names;
//   - handlers never entered (handlers.go): with Options.Signals (what
//     the simulator's actions and queries may signal, and when), the
//     labels of a failure handler clause no action, query or fail its
//     body reaches may enter; and (detects.go) the region of an object
//     detected right after a (go-to X) that returns only with the robot
//     at X, among those the simulator says X sees, read also through
//     plan functions and let bindings (detectvals.go); (floor.go) no
//     object on the floor when no placing gives a cell the simulator
//     says an object may fall from; (setbefore.go) a variable a
//     handler's body sets, never to nil, before anything its clause takes
//     may be signalled is not nil in the clause; and (otherarm.go) a handler that
//     retries only with the other arm never finds it holding once its
//     count is spent; (untaken.go, untaken_names.go) an object no
//     picking-up of the plan may take — every value reaching one comes
//     from detections whose conditions it fails, or its name is missing
//     from a list every picked object's name was pushed onto first —
//     stays where it started; (countpair.go) two counters one loop of
//     tests increments, where every pass that increments Y increments X
//     (such an object's region is its initial one), keep X >= Y;
//     (placebound.go) such a pair over all-objects, X counting objects
//     in a region and Y those that started there, keeps X <= Y + the
//     points of the region the plan's placings (each naming its cell)
//     may leave an object at;
//     (reach.go) a handler for object-unreachable around placings made from a known location and torso level on
//     cells the simulator says each arm reaches from there; (dropcycle.go)
//     a placing-failure handler that steps a global counter through a
//     literal list of cells never meets the count that follows a cell
//     every object drifts off from;
//   - sorted lists (sorted.go): with Options.Entry, the element (pop V)
//     took off a list an order-keeping insertion sort built, which only
//     pop and order-keeping sublist functions change, has a key no
//     greater than that of any element left in V, where a defun gets
//     both from every call;
//   - detected objects through lists (elems.go): with Options.Entry and
//     Options.Signals, the conjuncts of the filter under which detected
//     objects were pushed on a list hold of its elements wherever they
//     go, and a label whose predicate reads only its defun's parameters
//     is judged at every call by enumerating what the world says a
//     detected object may be (Signals.Perceived);
//   - counts a retry handler stores in list entries (retrycount.go):
//     with Options.Entry, a local count of tries incremented next to a
//     global count of failures whose bound the retry tests stays below
//     that bound, and a label reading the entries of a global list is
//     judged on the (list ...) forms every push may store there;
//   - the path analysis (paths.go): a symbolic execution of whole runs of
//     loop-free plans, with a Fourier–Motzkin solver over int64 rationals
//     (fm.go, rat.go), for labels still active once all are listed.
//
// Enumerate composes labels.Enumerate with these analyses (a
// labels.Judge). Like labels, feasible never imports the compiler, the
// VM, the simulator or the fuzzers, and never evaluates a plan.
package feasible

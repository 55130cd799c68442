//! The FIDE Dutch system (C.04.3, in force from 1 February 2026, with the C.04.1 basic
//! rules), on the exact matching engine.
//!
//! # What is paired
//! The players present (not withdrawn, no requested bye, not absent) are ranked by score
//! (plus the Baku acceleration of the round, if any), then by pairing number (start number).
//! A *score group* is the players of one score; a *bracket* is a score group plus the
//! players moved down to it (MDPs). Brackets are paired from the top; what a bracket leaves
//! unpaired moves down to the next one. The pairing-allocated bye (PAB) goes to the one
//! player left in the last bracket.
//!
//! # Absolute criteria (C.1-C.3) and completion (C.4)
//! A board exists only between players who have not played each other over the board (a
//! forfeited game does not count, as in C.04.1 and bbpPairings) and whom the director has
//! not forbidden to meet (`XXP`/`260`), and not between two players with the same absolute
//! colour preference (colour difference beyond 1, or the same colour in the last two played
//! games) unless, in the last round, one of them is a topscorer (more than half the maximum
//! score). The PAB goes only to a player who has had no PAB, no full-point bye and no win by
//! forfeit. Every bracket is paired so that the **whole rest of the round** can still be
//! completed: each bracket is one minimum-cost perfect matching over *every* player still
//! unpaired (plus a bye vertex when their number is odd), so an unpairable remainder is
//! never produced (this replaces the look-ahead of C.4 and the "collapsed last bracket").
//!
//! The score of the PAB assignee is fixed first: the lowest score at which some player can
//! take it and the rest still be paired (C.5); a bye to a higher score is the bracket's top
//! criterion.
//!
//! # The tiers of a bracket (lexicographic, highest first)
//! For a bracket B (MDPs + residents) and the next score group N, every board costs (all
//! counts, lower is better; "outside" = paired below, or given the bye):
//! 1. the PAB to a player above the PAB score (C.5); two MDPs paired together;
//! 2. players of B paired outside B (C.6: the most pairs in the bracket), then per MDP
//!    score, highest first, MDPs of that score paired outside B (C.7: the highest MDPs);
//! 3. players of B ∪ N paired outside B ∪ N, then per score of B, highest first, players of
//!    that score paired outside B ∪ N (C.8: the next bracket keeps the most and the
//!    highest pairs);
//! 4. when the PAB is decided in this bracket, the PAB's rank by games played (C.9: the
//!    fewest unplayed games);
//! 5. colours, on pairs inside B: two topscorers with an imbalance beyond 1 wanting the same
//!    colour, two absolute preferences where the one who yields gets a third colour in a row
//!    (C.10/C.11 topscorer exceptions), clashing preferences (C.12), clashing strong
//!    preferences (C.13);
//! 6. floats (C.14-C.21): residents who floated down last round paired outside B; boards
//!    where an MDP meets a resident who floated up last round; the same two for the round
//!    before; then per score, highest first, downfloaters of last round paired outside B,
//!    boards MDP (of that score) vs last round's upfloater; the same for the round before.
//!
//! Then the choices C.04.3 leaves to the order of pairing numbers (B.3-B.4, D), as
//! bbpPairings makes them, in two solves:
//! * **A**: each MDP in order paired if possible (the highest MDPs first), then each paired
//!   MDP's opponent the highest-ranked resident possible. These boards are fixed.
//! * **B**, the remainder R (residents left), split in S1 (as many as its pairs) and S2: the
//!   fewest pairs headed by an S2 player (exchanges), the least sum of the heads' positions
//!   (the smallest exchange differences), the lowest S1 players exchanged, the highest S2
//!   players brought up, then each head's opponent the highest possible (transpositions).
//!
//! A's hint (below its criteria, so no criterion depends on it) also asks for the least sum
//! of the positions of the residents heading a pair of residents: the top residents' sum
//! is the least, so A's matching has no exchange when one of its optima has none (and A
//! ran a solve: a matching that needs none is not looked at further). Then the exchanges
//! need no solve: that matching is optimal on the base criteria in B too (with
//! the MDPs' boards it is a matching of A, which is optimal on them), it has the fewest
//! exchanges (none), and so the least sum of the heads (the S1 players), and only the heads
//! it fixes go on to B's last solve (debug builds solve the exchanges on small problems and
//! check the heads are the same).
//!
//! A tier is a count of small values on each board; a bracket has dozens of them (hundreds
//! with one per player of the remainder), more than a 128-bit weighted cost holds, so
//! [`lex`] solves them in stages: a tier on which the current optimum already totals 0
//! deletes its boards without a solve, a tier of one player's boards ("the opponent of
//! head k") whose least value the current matching already takes pins that board without a
//! solve, the others are weighed by the totals actually reached (exact, see [`lex`]). Each
//! solve starts from the previous one's matching and carries a *hint* below its criteria
//! (the k-th MDP with the k-th resident, the k-th head with the k-th other member: the
//! natural pairing), so that the following per-player tiers are usually settled without a
//! solve: round 1 of 300 players takes 3 matching solves.
//!
//! # Where bbpPairings differs
//! C.9 (the PAB assignee with the fewest unplayed games) is applied here whenever the PAB
//! is decided in a bracket. bbpPairings applies it only when, in its intermediate matching
//! at the end of the bracket before, every player moving down happens to meet someone of
//! the next score group, a state its rules leave arbitrary; when it does not, the MDP order
//! decides instead. This is the only kind of disagreement found by `scripts/dutch-agreement`:
//! on 200 generated tournaments (10-300 players, 5-11 rounds, forfeits, half-point byes,
//! retirements) 1594 of 1598 rounds are identical (boards, colours, PAB), and in each of the
//! 4 others our PAB goes to a player with no unplayed game where bbpPairings' goes to one
//! with one unplayed game. With the Baku acceleration (`BAKU=1 scripts/dutch-agreement 25`):
//! 25 tournaments, 201 of 201 rounds identical.
//!
//! # Speed
//! Every solve is over every player still unpaired, but only some pairs are edges: the
//! pairs inside the bracket (the others there, two residents far apart in the order and far
//! from the natural S1-S2 distance, are handed to the solver only when priced in, in the
//! MDP solve as in the remainder's), the bye's, the pairs of players at most
//! 12 apart in the order, the bracket's players with the top 12 below it, and the start
//! matching's. A pair with at most one end in the bracket is otherwise *lazy*
//! (`lex::Lazy`): each end's values depend only on the class of the other end (in the
//! bracket, the next score group, below), so after each solve the lazy pairs that could
//! lower the cost are found per class pair from each end's key `2·value − 2·dual` (two
//! keys plus the blossoms' share are twice the pair's reduced cost) by a search of the
//! blossom forest that enters no subtree whose least keys cannot reach 0
//! (`Duals::negative_pairs`), and join with the solver's warm start. The result is the same optimum (LP duality;
//! debug builds check every lazy pair on problems of up to 80 players). Memory is the
//! bracket's pairs plus a few per player, not the field's pairs.
//!
//! Measured (release, this 2-core machine, `/usr/bin/time`, whole process, pairings
//! identical). Session 6: `tourney pair --system fide_dutch` on a `bench-swiss --write-trf`
//! history (round 6): 1000 players 0.91 → 0.11 s CPU, 84 → 18 MB; 2000 5.85 → 0.80 s, 298
//! → 39 MB; 3000 → 1.86 s, 65 MB (611 MB before); round 1 (one bracket of the whole field,
//! whose pairs are all edges): 2000 1.01 s CPU, 252 MB; 3000 2.16 s, 563 MB.
//!
//! Session 7 (profiled with `perf record` and per-solve timers at 5000 and 9999): at 5000
//! the MDP solve of a large bracket handed the solver every resident pair with a colour
//! value (335 000 edges for 1190 residents, 0.96 s); now 53 000, 0.20 s. At 9999 the
//! lazy pairs' enumeration built the tiers of millions of candidates per pricing pass
//! (60 % of the time: `lazy_pair`, `meet`, the tier closures, `merge`), nearly all then
//! refused by the blossoms' share of their reduced cost, which is now checked first. Both
//! changes leave every solve's edges and optimum as they were. `tourney bench-dutch` on a
//! `bench-swiss --write-trf` history, round 5 (load 5-6): 2000 players 0.69 → 0.57 s CPU,
//! 43 → 36 MB; 5000 6.94 → 4.19 s CPU, 191 → 152 MB; 9999 164 → 67 s CPU (82 s wall), 646
//! → 485 MB. Round 1: 3000 2.2 s CPU, 565 MB; 3500 3.1 s, 749 MB; 4000 3.8 s, 954 MB; 5000
//! 6.5 s, 1.5 GB; 9999 stopped after 600 s wall (510 s CPU, 5.9 GB): a section stops at
//! 3500 ([`crate::limits::MAX_DUTCH_PLAYERS`]).
//! bbpPairings' generated 1000-player event: round 5 0.09 s CPU, 19 MB, round 1 0.23 s, 75
//! MB, both the published pairing; `scripts/bench-dutch 1000 2000 5000` (`BBP_TIMEOUT=120`,
//! load 5-6): ours 0.10, 0.57, 4.33 s CPU, 18, 36, 151 MB; bbpPairings 24.6 s CPU (37 s
//! wall, 87 MB) at 1000, stopped after 120 s wall at 2000 and 5000.
//!
//! What is left for 9999 players in 15 s: the time is now the blossom solves, from scratch
//! at each lexicographic stage (a stage holds the tiers whose weights fit 127 bits, about
//! five "opponent of head k" tiers), mostly in the remainder's last solve where each head's
//! opponent is chosen: 233 solves for one bracket of 1651 players at 9999, each over the
//! 7800 players still unpaired; then the candidates' enumeration (its sorted bound ignores
//! the blossoms, `common_blossoms2` is 13 % at 9999). Next steps: those solves over the
//! bracket, the next group and a window below (the rest completable by a matching of its
//! own, the border priced with duals), stages warm-started from the previous optimum, and
//! the far pairs inside a bracket made lazy by their positions, which would also free round
//! 1 (its memory is the square of the field).
//!
//! Since then: a round in which nobody has played yet and all scores are equal (round 1
//! without acceleration) is paired without a matching (`bracket::Round::untouched`: the
//! first candidate, S1[i]–S2[i] with the PAB to the last player, breaks no criterion, so no
//! other candidate can be better). Round 1 of 3000 players 2.21 s and 562 MB → 0.08 s and
//! 8 MB, the same pairings. The largest rounds are now 2 and 3 (5000 players: 19.9 s, 355
//! MB and 18.8 s, 293 MB): [`crate::limits::MAX_DUTCH_PLAYERS`] is 5000.
//!
//! Agreement unchanged (`scripts/dutch-agreement 200`: 1594 of 1598 rounds, the 4 others PAB
//! disagreements of the kind above; `BAKU=1 ... 25`: 201 of 201; `scripts/dutch-made-events
//! 300`: 2063 of 2071, the 8 others C.9 PABs as in `tests_rules/bye.rs`); `OLD=<the
//! build before> scripts/bench-dutch same`: rounds 6 and 1 of 1000, 2000 and 3000 players
//! identical byte for byte.
//!
//! Session 8, measured and not kept: at 5000 players (round 2 of a `bench-swiss` history,
//! 23.5 s on that day's machine, on which round 5 of 9999 took 80.3 s) the lazy pairs'
//! enumeration met 168 million pairs with a negative sum of ends, every one inside a single
//! top-level blossom and every one refused by the blossoms' share (none priced in). Grouping
//! the ends by top-level blossom (a pair of two groups has no share; a pair inside one is
//! bounded by that blossom's dual) cut them to 125 million and changed nothing in time
//! (23.5 → 23.2 s; 9999: 80.3 → 80.5 s): the share comes from the nested blossoms, not the
//! top one, and the enumeration is about a tenth of the time. `perf` at 9999 round 5:
//! blossom `scan_edge` 27 %, `common_blossoms2` 14 %, `stages` 11 %, heap push and pop 10 %,
//! `slack` 5.5 %. The solves themselves (their number and their size) remain the way to 15 s.
//!
//! Session 9: the stages of a solve resume the blossom state of the stage before instead of
//! solving again (see [`lex`], "Resuming the solver state"): only the new tiers' edges change
//! cost, so only their few matched ends are freed and matched again. `tourney bench-dutch`,
//! the build before beside this one, same run, pairings identical: 5000 players round 2 23.7
//! → 12.5 s wall (355 → 468 MB), round 3 22.9 → 10.2 s, round 5 5.3 → 3.0 s; 9999
//! round 5 78.9 → 40.1 s (466 → 529 MB). In the stage sequence of the 9999-player round the
//! remainder's head solves went from 56 s to about 30 s; a pricing pass is then most of a
//! stage where the blossom of the players below the bracket is rebuilt at every solve (its
//! pairs' bound is cut off by the nested blossoms' share, `common_blossoms2` 28 % of the
//! time), and the single solves of the largest brackets (phase A and the exchanges, 2.5
//! million pairs built at 6000 players unpaired) are most of the rest. Agreement unchanged
//! (`scripts/dutch-agreement 200`: 1594 of 1598; `BAKU=1 ... 25`: 201 of 201;
//! `scripts/dutch-made-events 300`: 2063 of 2071).
//!
//! Session 10: the lazy pairs are found by a search of the blossom forest
//! (`Duals::negative_pairs`: per blossom, the pairs whose lowest common blossom it is have
//! its share, and a child pair or a subtree whose least keys cannot reach 0 is not
//! entered), which hands over only pairs of negative reduced cost: at 5000 players, round
//! 2, the old enumeration looked at 161 million candidates in the stages of the first
//! bracket and priced in none; the search looks at none. And when a pricing pass finds
//! many far pairs of the bracket at once (381 000 at 2000 players), only the 32 most
//! negative at each end join. `tourney bench-dutch`, the build before beside this one, same
//! run, pairings identical (CPU time; wall time in brackets where the run had the machine
//! alone): 1000 round 5 0.15 → 0.13 s; 2000 round 2 1.20 → 1.04 s; 5000 round 2 12.6 → 9.3 s
//! (473 → 391 MB), round 3 10.5 → 7.4 s, round 5 2.9 → 2.5 s; 9999 round 5 41.2 → 27.6 s
//! (530 → 449 MB), round 3 56.1 → 34.8 s, round 2 142.1 → 95.2 s (1.66 → 1.45 GB). Where
//! round 2 of 9999 goes now (per-solve timers): the exchanges' single solve of the last
//! bracket (4011 players, nobody below) 51 s, that of the first (4013 players) 11 s, the
//! heads' stages of the first 20 s (half of it the far pairs' pricing scans), each phase A
//! 4 s. The goal of 15 s at 10 000 players is still not met.
//!
//! Session 11: that 51 s solve was the solver's jump start failing, not the problem: the
//! bye vertex (an edge to each of the 4011 players, cheaper than any board) took its dual
//! first, every player's tightest edge was then the bye's, and the greedy start matched 4
//! of 4012 vertices, leaving 2004 stages that shrank and expanded 1.6 million blossoms. The
//! blossom solver now raises such *hubs* last (see `engine::matching::blossom`, Speed): 92
//! vertices left for the stages, 4.8 s. A pricing pass also skips the pairs inside one top
//! blossom whose reduced cost cannot be below 0 even with only that blossom's `z` (before,
//! the lowest common blossom was looked up for each), and `Duals::common_blossoms2` answers
//! from a vertex's innermost blossom when the other end lies in it (a chain of blossoms, as
//! a score group's, always), without the sparse table. `tourney bench-dutch`, the build of
//! session 10 beside this one, same run, pairings identical (CPU time): 9999 round 2 93.0 →
//! 48.5 s (1.49 → 1.47 GB), round 3 34.8 → 30.7 s, round 5 25.2 → 25.0 s; 5000 round 2 8.9 →
//! 8.7 s, round 3 7.1 → 6.8 s; smaller unchanged within noise. Round 2 of 9999
//! now: the heads' stages of the first bracket about 18 s (10 s of it pricing scans of its
//! 4 million far pairs, 350 passes), its exchanges solve 8 s, the last bracket's 5 s, and
//! each remaining stage a few seconds. Tried and dropped: a constant lift of the exchanges'
//! sum of heads (`s1 − i` per S1 member, so that every S1–S2 pair weighs the same): round 2
//! 48.3 → 46.0 s but round 5 23.6 → 28.2 s; the heads' hint as `|rank difference|` (round
//! 2 70 s) or its cube (52 s) instead of its square (47 s); a fresh solve when a pricing pass
//! adds more than an eighth of the edges held, not a quarter (round 2 57 s); adjacency
//! updated in place instead of rebuilt (no gain).
//!
//! Session 12: in the heads' stages of the first bracket at 9999 (round 2) every stage frees
//! a head deep in the nest of blossoms that holds the bracket, which undoes the whole nest
//! and flags each of its 4 000 vertices, so that 277 of 356 pricing passes read all of its 4
//! million far pairs (466 million pairs, 340 million of them past the top blossom's bound).
//! But 82 % of those pairs lay inside a blossom that lasted from one pass to the next (below
//! the freed head), whose inside nothing can change while it lasts: a pair inside one keeps
//! its reduced cost (`Duals::lasting`, from the birth of every blossom, checked by
//! `lasting_blossoms_keep_their_reduced_costs`). A pass now looks at the edges left out
//! from the ends outside the largest lasting blossom (or the flagged ends, whichever hold
//! fewer), by per-vertex lists of those edges. `tourney bench-dutch`, the build of session
//! 11 beside this one, same run, pairings identical (user CPU time): 9999 round 2 44.9 → 39.4 s
//! (1.46 → 1.59 GB: the lists), round 3 28.2 → 23.6 s, round 5 22.8 → 22.6 s; 5000 round 2
//! 7.7 → 7.3 s, round 3 6.1 → 6.0 s; smaller unchanged. Tried and dropped: a bound of each
//! pair's fall from the rise of its ends' duals since it was last looked at (the duals
//! climb back by the `z` of the undone nest at every stage: 2 % of the pairs skipped); per
//! large blossom, its vertices' edges that leave it, for when it is labelled outer again
//! (no gain: 9999 round 2 39.6 against 39.3 s; 47 % of the solver's edge scans stay inside
//! one top blossom, but they are those of vertices turning outer as they join the growing
//! blossom, scanning their edges into it); keeping the last pass's duals when negative
//! edges were left out, those looked at again (no gain: 40.1 against 40.3 s). What
//! is left at 9999 round 2 is mostly the blossom stages themselves (half the time: the nest
//! undone and formed again at every stage), then the solves' setup over 8 million pairs.
//!
//! Session 13: per-call timers at 9999 round 2 showed the heads' tiers ("the opponent of
//! head k") of the first bracket taking 327 resumed solves (8.8 s) and those of the last
//! 287 (2.9 s), although the hint's matching already gave nearly every head its best
//! opponent: the plain floor (the least value over the head's edges) was lower only
//! because cheaper opponents (of the wrong colour, say) were still edges. The last solve's
//! duals now settle such a tier without a solve (see [`lex`]: a matching as good on every
//! tier above costs at most the hint's bound more, so it holds no edge of a higher reduced
//! cost): 12 and 11 solves there. The start's edges are read in one pass over the edges
//! instead of from each vertex's list. `tourney bench-dutch`, the build of session 12
//! beside this one, same run, pairings identical (user CPU time): 9999 round 2 47.6 →
//! 36.7 s, round 3 29.3 → 25.9 s, round 5 28.5 → 28.9 s; 5000 round 2 8.6 → 7.1 s, round 3
//! 7.3 → 5.6 s, round 5 2.6 → 2.3 s; memory unchanged. At round 5 fewer solves are not
//! faster: the tiers settled between two solves pin their heads, and the next resume frees
//! every head whose removed edges held a blossom's cycle, each undoing the nest. Tried
//! and dropped: the hint's next tiers weighed among themselves so that they come out
//! optimal too (the exchanges' sum of heads then rides in the first solve, but that solve
//! takes as long as the two); a fresh solve after a large pricing pass started from the
//! last duals (blossoms' `z` moved into the vertices) instead of from scratch (the first
//! bracket's exchanges 7.3 → 2.3 s, the last bracket's 5.3 → 16.5 s); pins by the duals
//! applied only when a later solve breaks them (round 5 29.7 → 40.8 s, round 2 40.6 →
//! 50.4 s); each vertex's edge list made at its size and a pair's tiers merged in place
//! (round 2 1.58 → 1.81 GB: the lists doubled at the first priced edge).
//!
//! Session 14, in the blossom solver (see `engine::matching::blossom`, Speed): counters in
//! its stages at 9999 round 2 showed the exchanges' solves peeling nests of thousands of
//! blossoms one level per dual step (an inner blossom whose `z` reaches 0 is expanded, its
//! largest child is inner again), each level visiting every vertex: 400 million visits,
//! all but a million of them in the child that stays inner; the stages took 20.2 s of a
//! 38.1 s run with the counters on. That child now takes the expanded blossom's id, and
//! its vertices are not visited (1.2 million visits; the stages 14.3 s of 31.1 s).
//! Rebasing a nest for an augmentation lists each vertex's blossoms once instead of
//! walking up the nesting again at every level. `tourney bench-dutch`, the build
//! of session 13 beside this one, same run, pairings identical (user CPU time): 9999 round
//! 2 34.1 → 26.8 s, round 3 21.3 → 15.4 s, round 5 26.5 → 17.9 s; 5000 round 2 6.9 →
//! 5.4 s, round 3 4.9 → 4.2 s, round 5 2.1 → 1.9 s; memory unchanged. Tried and dropped:
//! the fresh solve after a large pricing pass started from the last duals or from the jump
//! start, whichever leaves fewer vertices exposed (28.5 s against 27.5 s with the jump
//! start always; the last duals always: 33.5 s: a start with as many exposed vertices can
//! take ten times as long); a pair's tiers merged in place and shrunk (round 2 1.58 → 1.81
//! GB and slower); each dual stored beside its sign (no change measured).
//!
//! Session 15, in the blossom solver: a scan passes over an edge inside the scanning
//! vertex's top blossom (36 % of the 630 million entries scanned at 9999 round 2), or to a
//! vertex of an inner blossom already reached, before reading its cost and the far end's
//! dual, and such an edge reads 8 bytes of the adjacency instead of 24. `tourney
//! bench-dutch`, the build of session 14 beside this one, same runs, pairings identical
//! (user CPU time; this machine's times varied by up to 20 % between identical runs, so
//! these are means of alternating runs): 9999 round 2 28.1 → 27.1 s (two runs each), round
//! 3 18.8 → 18.3 s and round 5 23.8 → 20.2 s (three each, the inner-blossom pass not yet
//! in); 5000 round 2, medians of eight: 6.74 → 6.42 s. A few per cent, then. Measured and
//! not kept: a forest of trees grown together (see `engine::matching::blossom`, Speed), a
//! third of the scans but slower.
//!
//! Session 16: per-call timers at 9999 round 2 showed a third of the time outside the
//! solver, in building each solve's 8 million pairs of the largest brackets (setup 5.7 s,
//! the model 2.2 s) and pricing them (7.3 s), and the exchanges' solve of each large
//! bracket (7.4 s and 5.6 s) as the largest. A's hint now asks for the least sum of the
//! heads, so its matching has no exchange when an optimum has none, and B1 is then not
//! solved (see "The tiers of a bracket" above; the heads, and so every board, are the
//! same): at 9999 rounds 2, 3 and 5 and 5000 round 2 every bracket skips it (20 of 20).
//! Tried first: the natural pairing (S1 k with S2 k) as A's hint, which also skips B1 but
//! makes A as slow as the two solves it replaced (9999 round 2 −7 %, 3000-5000 round 2 +18
//! to +33 %), and a hint of 1 per exchanged pair (5000 round 2: 30-36 s against 6 s).
//! `tourney bench-dutch`, the
//! build of session 15 beside this one, same runs, pairings identical (user CPU time, means
//! of two alternating runs): 9999 round 2 27.1 → 16.5 s (sys 3.3 → 1.8 s; 1.58 → 1.55 GB),
//! round 3 15.4 → 11.0 s, round 5 16.7 → 11.5 s; 7000 round 2 12.9 → 9.2 s; 5000 round 2
//! 5.42 → 4.41 s, round 3 4.11 → 3.51 s, round 5 1.90 → 1.48 s; 4000 round 2 3.41 → 2.69 s;
//! 3000 round 2 1.52 → 1.12 s; 2000 round 2 0.68 → 0.61 s. Agreement unchanged
//! (`scripts/dutch-agreement 200`: 1594 of 1598, the same 4 PAB disagreements; `BAKU=1 ...
//! 25`: 201 of 201). The goal of 15 s at 10 000 players is still not met at round 2.
//!
//! Session 17: a solve's pairs hold their tier values in one flat list
//! (`lex::LexEdges`: one allocation for the 8 million pairs of a large bracket, not one
//! each), and the passes over every pair of a large solve are shared between two scoped
//! threads (`threads::both`), with the same results in the same order: the bracket's
//! pairs valued in two halves (`bracket::inner_pairs`), the model's edges listed per
//! vertex while its tiers' facts are gathered, every edge costed while the edges left out
//! are listed per vertex, and a pricing pass over every edge in two halves. The solver
//! itself stays on one thread. Tried and not kept (no gain seen): the per-vertex pricing
//! pass on two threads (more CPU), and the model's edges per vertex in 32 bits with exact
//! room. The tests take every threaded path on every solve of three players or more (the
//! thresholds are 0 and 1 there). `tourney bench-dutch`,
//! the build of session 16 beside this one, same runs, pairings identical (means of two
//! alternating runs, wall / user CPU): 9999 round 2 17.2 → 14.2 s / 15.4 → 14.4 s (sys
//! 1.9 → 3.0 s; 1.51 → 1.31 GB), round 3 12.0 → 9.8 s, round 5 11.6 → 10.3 s; 7000 round
//! 2 9.5 → 8.0 s; 5000 round 2 4.57 → 3.59 s, round 3 3.62 → 3.28 s, round 5 1.68 → 1.40
//! s; 4000 round 2 3.12 → 2.62 s; 3000 round 2 1.27 → 1.03 s; 2000 round 2 0.69 → 0.61 s;
//! 1000 round 5 0.12 → 0.08 s. The machine's speed drifts: a later set of four
//! alternating runs of 9999 round 2 gave 19.1 → 16.5 s wall, so the 15 s goal is met only
//! in its faster phases. Agreement unchanged (1594 of 1598, the same 4; Baku 201 of 201).
//!
//! Session 18: a flat profile (`perf record`) showed a tenth of the time in the kernel
//! zeroing fresh pages (1.1 million page faults at 9999 round 2): every large solve built
//! about a gigabyte of per-pair lists afresh. They are now packed: each tier value of a pair
//! in 8 bytes (tier and value as 32-bit numbers, 16 bytes before), and in 32 bits the
//! offsets of each pair's values, each tier's list of valued edges, each vertex's edges, and
//! each vertex's edges left out of the problem (the edge's number only: its other end is
//! read from the edge when a pricing pass looks at it). The values fit: each is a count, a
//! position or the square of a difference of positions in a section of at most 10 000
//! players. Changing the glibc allocator's thresholds (`GLIBC_TUNABLES`) instead kept the
//! memory but did not lower the wall time (three alternating runs). `tourney bench-dutch`,
//! the build of session 17 beside this one, same runs, pairings identical (wall time, means
//! of alternating runs): 9999 round 2 12.28 → 10.88 s (four runs; sys 2.60 → 1.56 s, peak
//! 1.34 GB → 936 MB; the packed values alone: 12.31 → 11.17 s in six runs), round 3 8.61 →
//! 7.93 s (909 → 678 MB), round 5 9.05 → 8.93 s (401 → 308 MB); 5000 round 2 3.59 → 3.33 s
//! (368 → 267 MB), round 3 2.73 → 2.59 s; 1000 round 5 0.07 s both (these last, from
//! round 3 at 9999 on, measured with the packed values only; packing the left-out lists
//! then took 5000 round 2 from 3.15 to 2.96 s). One score group of the whole field (round
//! 1 all draws): 5000 players 3.37 → 2.60 s and 1.75 → 1.10 GB (two runs); 9999 players 23.7 →
//! 15.0 s and 6.9 → 4.3 GB (one run; sys 20.3 → 8.4 s). Agreement unchanged
//! (`scripts/dutch-agreement 200`: 1594 of 1598, the same 4 PAB disagreements; `BAKU=1 ...
//! 25`: 201 of 201).
//!
//! # Colours (C.04.3 E)
//! E.1 both preferences granted; E.2 the stronger preference (absolute over strong over
//! mild; between two absolutes, the larger colour difference); E.3 alternate from the most
//! recent round in which the two had different colours; E.4 the higher-ranked player's
//! preference; E.5 with no preference, the higher-ranked player gets the initial colour
//! when his pairing number is odd (the colour of the top player in round 1: the `XXC`
//! setting, else read from the first round's colours, else the section's coin flip).

mod bracket;
pub mod check;
pub(crate) mod colour;
mod edit;
mod lex;
pub(crate) mod player;
mod threads;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_rules;

pub use crate::engine::chess::swiss::accel::{read_acceleration, Acceleration};
use crate::engine::chess::swiss::colour::round_one_colour;
use crate::engine::chess::swiss::{
    BoardPairing, ByeAward, ByeKind, Colour, ExplanationEntry, RoundPairing, RoundResult,
    SwissError, SwissState,
};
use crate::engine::matching::MatchingSolver;
use bracket::{PairError, Round};
pub use edit::{evaluate_round_pairing, pair_round_with_fixed};

use crate::engine::chess::swiss::rules::PairingRules;
use std::collections::HashSet;

fn err(field: &str, message: impl Into<String>) -> SwissError {
    SwissError {
        field: field.into(),
        message: message.into(),
    }
}

/// The colour of the top player in round 1: the setting, else read from the earliest round
/// with colours (the highest player who took part in the pairing then; the second one's
/// colour reversed, and so on, as bbpPairings reads it), else the seed's coin flip.
/// Whether the round to pair is the last one (the topscorer exceptions apply), and the score
/// in half-points a topscorer has more than (half the maximum: one half-point a round played).
fn last_round_facts(state: &SwissState) -> (bool, i64) {
    let played = state.rounds_played();
    let total = state.settings.total_rounds;
    (total > 0 && played + 1 >= total, played as i64)
}

fn initial_colour(state: &SwissState) -> Colour {
    if let Some(c) = state.settings.first_colour {
        return c;
    }
    let first = state
        .players
        .iter()
        .filter_map(|p| p.history.iter().position(|r| r.colour.is_some()))
        .min();
    if let Some(f) = first {
        let mut order: Vec<&_> = state.players.iter().collect();
        order.sort_by_key(|p| p.start_number);
        let took_part = |r: &crate::engine::chess::swiss::RoundRecord| {
            r.result.has_opponent() || r.result == RoundResult::PairingBye
        };
        let mut k = 0;
        for p in order {
            if p.history.iter().take(f + 1).any(took_part) {
                if let Some(c) = p.history.get(f).and_then(|r| r.colour) {
                    return if k % 2 == 0 { c } else { c.opposite() };
                }
                k += 1;
            }
        }
    }
    round_one_colour(state.settings.seed, None)
}

/// Pairs the next round of `state` by the FIDE Dutch system.
///
/// `accel`: the virtual points of each player per round ([`Acceleration::none`] for none).
pub fn pair_dutch_accelerated(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<RoundPairing, SwissError> {
    pair_around(state, solver, accel, &[])
}

/// Pairs the round with `fixed` boards (`(white, black)` start numbers, already checked by
/// [`edit::check_boards`]) set aside: the others are paired by the Dutch rules as if the
/// fixed players were not in the round; the fixed boards keep their colours.
fn pair_around(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
    fixed: &[(u32, u32)],
) -> Result<RoundPairing, SwissError> {
    state.validate()?;
    let round = state.round_to_pair();
    let (mut byes, out) = crate::engine::chess::swiss::round::decided_byes(state);
    let by_index = |i: usize, r: usize| accel.of(state.players[i].start_number, r);
    let mut all = player::players(state, &by_index);
    // Pairing numbers count the players paired now or in an earlier round.
    let positions = crate::engine::chess::swiss::round::pairing_positions(state, &out);
    for (p, k) in all.iter_mut().zip(positions) {
        if let Some(k) = k {
            p.rank = k;
        }
    }
    let forced: HashSet<u32> = fixed.iter().flat_map(|&(w, b)| [w, b]).collect();
    let mut ps: Vec<&player::DutchPlayer> = state
        .players
        .iter()
        .zip(&all)
        .filter(|(p, _)| {
            !p.withdrawn && !out.contains(&p.start_number) && !forced.contains(&p.start_number)
        })
        .map(|(_, d)| d)
        .collect();
    if ps.len() < 2 && fixed.is_empty() {
        return Err(err("players", "fewer than two players to pair"));
    }
    ps.sort_by_key(|p| (std::cmp::Reverse(p.score), p.rank));
    let played = state.rounds_played();
    let (last_round, topscore) = last_round_facts(state);
    let r = Round {
        ps,
        last_round,
        topscore,
        played,
    };
    // Every other player on a forced board: the one left (if any) is the director's bye.
    let paired = if !fixed.is_empty() && r.ps.len() < 2 {
        Ok(bracket::Paired {
            bye: (r.ps.len() == 1).then_some(0),
            ..Default::default()
        })
    } else if let Some(p) = r.untouched() {
        Ok(p)
    } else {
        r.pair(solver)
    }
    .map_err(|e| match e {
        PairError::Impossible => err(
            "players",
            "no pairing satisfies the absolute criteria (rematches, forbidden pairs, colours)",
        ),
        PairError::Solver(s) => err("players", s),
    })?;
    let initial = initial_colour(state);
    let mut boards: Vec<(i64, i64, usize, u32, u32)> = paired
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (pa, pb) = (r.ps[a], r.ps[b]);
            let (p, o) = if pa.sn < pb.sn { (pa, pb) } else { (pb, pa) };
            let c = colour::colour_of(p, o, initial);
            let (white, black) = if c == Colour::White {
                (p.sn, o.sn)
            } else {
                (o.sn, p.sn)
            };
            let (hi, lo) = if colour::ranks_above(pa, pb) {
                (pa, pb)
            } else {
                (pb, pa)
            };
            // Boards are ordered by the real scores (without acceleration).
            let real = |p: &player::DutchPlayer| p.score - accel.of(p.sn, played as usize);
            (-real(hi), -real(lo), hi.rank, white, black)
        })
        .collect();
    let by_sn: std::collections::HashMap<u32, &player::DutchPlayer> =
        all.iter().map(|d| (d.sn, d)).collect();
    for &(white, black) in fixed {
        let (pw, pb) = (by_sn[&white], by_sn[&black]);
        let (hi, lo) = if colour::ranks_above(pw, pb) {
            (pw, pb)
        } else {
            (pb, pw)
        };
        let real = |p: &player::DutchPlayer| p.score - accel.of(p.sn, played as usize);
        boards.push((-real(hi), -real(lo), hi.rank, white, black));
    }
    boards.sort_unstable();
    let pairings = boards
        .iter()
        .enumerate()
        .map(|(k, b)| BoardPairing {
            board: k as u32 + 1,
            white: b.3,
            black: b.4,
        })
        .collect();
    if let Some(b) = paired.bye {
        byes.insert(
            0,
            ByeAward {
                player: r.ps[b].sn,
                points: 1.0,
                kind: ByeKind::Pairing,
            },
        );
    }
    Ok(RoundPairing {
        round,
        pairings,
        byes,
        explanation: vec![ExplanationEntry::Note {
            message: if fixed.is_empty() && paired.solves == 0 {
                format!(
                    "FIDE Dutch system (C.04.3): {} boards; nobody has played yet, so the top half meets the bottom half in order (no matching needed)",
                    paired.pairs.len()
                )
            } else if fixed.is_empty() {
                format!(
                    "FIDE Dutch system (C.04.3): {} boards, {} matching solves ({} resumed from the one before)",
                    paired.pairs.len(),
                    paired.solves,
                    paired.resumed
                )
            } else {
                format!(
                    "FIDE Dutch system (C.04.3): {} forced boards; the other {} boards paired by the Dutch rules around them ({} matching solves, {} resumed from the one before)",
                    fixed.len(),
                    paired.pairs.len(),
                    paired.solves,
                    paired.resumed
                )
            },
        }],
    })
}

/// Pairs the next round of `state` by the FIDE Dutch system, without acceleration.
pub fn pair_dutch(
    state: &SwissState,
    solver: &dyn MatchingSolver,
) -> Result<RoundPairing, SwissError> {
    pair_dutch_accelerated(state, solver, &Acceleration::none())
}

/// The FIDE Dutch system behind the one interface: the section's `acceleration` setting
/// replaces an acceleration read from a TRF file.
pub struct DutchRules;

impl PairingRules for DutchRules {
    fn pair(
        &self,
        state: &SwissState,
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        let accel = Acceleration::for_settings(state, accel.clone());
        pair_dutch_accelerated(state, solver, &accel)
    }

    fn pair_with_fixed(
        &self,
        state: &SwissState,
        fixed: &[(u32, u32)],
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        pair_round_with_fixed(state, fixed, solver, accel)
    }

    fn evaluate(
        &self,
        state: &SwissState,
        boards: &[(u32, u32)],
        byes: &[u32],
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        evaluate_round_pairing(state, boards, byes, solver, accel)
    }
}
